/// The parameters of a method: the fields of the call's `parameters` object. A call
/// that names any other field, or whose `parameters` is not an object, gets
/// `org.varlink.service.InvalidParameter`, as the reference implementations answer.
protocol VarlinkParameters: Decodable {
    /// Every field the method takes, as the interface names them.
    static var fields: Set<String> { get }
}

extension DaemonAPI.Empty: VarlinkParameters {
    static var fields: Set<String> { [] }
}

extension DaemonAPI.SendEventParameters: VarlinkParameters {
    static var fields: Set<String> { ["name", "parameters"] }
}

extension DaemonAPI.LogLevel: VarlinkParameters {
    static var fields: Set<String> { ["level"] }
}

extension DaemonAPI.InterfaceName: VarlinkParameters {
    static var fields: Set<String> { ["interface"] }
}

extension DaemonAPI.OpenURLParameters: VarlinkParameters {
    static var fields: Set<String> { ["url", "parameters"] }
}

extension DaemonAPI.PerformActionParameters: VarlinkParameters {
    static var fields: Set<String> { ["target", "action", "parameters"] }
}
