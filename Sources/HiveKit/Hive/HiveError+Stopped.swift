extension HiveError {
    /// The error for a call into a hive whose last module was torn down:
    /// `cannot open 'hive://x': the hive has stopped`.
    static func hiveStopped(_ what: String) -> HiveError {
        HiveError(.refusedEvent, "\(what): the hive has stopped")
    }
}
