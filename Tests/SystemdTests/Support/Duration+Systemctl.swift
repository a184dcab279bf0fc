extension Duration {
    /// How often the suite looks again at what it waits for in the container (`systemctl`
    /// state, the journal, a port): nothing there signals this process, so its waits poll,
    /// and each look runs a command, so not more often than this.
    static let systemctl: Duration = .milliseconds(100)
}
