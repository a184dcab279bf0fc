/// Every error HiveKit throws: what went wrong, and the module, event and file:line
/// it concerns where there is one.
///
/// Compare ``code`` to tell errors apart; new codes may be added.
public struct HiveError: Error, Sendable, CustomStringConvertible {
    /// What kind of error this is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case handlerFailed, handlerTimedOut, duplicateModule, unknownModule, unknownModuleType
            case invalidSettings, invalidConfiguration, refusedEvent, notRegistered
            case duplicateRegistration, typeMismatch, invalidRoute, notFound
            case circularDependency, invalidParameter, cancelled, invalidAnnotation, unavailable
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A module's hook threw.
        public static let handlerFailed = Code(.handlerFailed)
        /// A module's hook ran past its time budget and was abandoned.
        public static let handlerTimedOut = Code(.handlerTimedOut)
        /// Two modules share a name.
        public static let duplicateModule = Code(.duplicateModule)
        /// No module has that name.
        public static let unknownModule = Code(.unknownModule)
        /// The catalog cannot build that module type.
        public static let unknownModuleType = Code(.unknownModuleType)
        /// A module's settings are unusable.
        public static let invalidSettings = Code(.invalidSettings)
        /// A configuration file is invalid.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The event makes no sense in the hive's current state.
        public static let refusedEvent = Code(.refusedEvent)
        /// A service, route or action is not registered.
        public static let notRegistered = Code(.notRegistered)
        /// A service, route or action is registered twice.
        public static let duplicateRegistration = Code(.duplicateRegistration)
        /// A registered implementation does not have the requested type.
        public static let typeMismatch = Code(.typeMismatch)
        /// A URL or route pattern is malformed.
        public static let invalidRoute = Code(.invalidRoute)
        /// Nothing handled a URL, target or action.
        public static let notFound = Code(.notFound)
        /// A service's factory needs the service it is creating.
        public static let circularDependency = Code(.circularDependency)
        /// An action's parameter is missing or of the wrong type.
        public static let invalidParameter = Code(.invalidParameter)
        /// The caller's task was cancelled while its call waited for its turn; nothing ran.
        public static let cancelled = Code(.cancelled)
        /// An annotation in the program is malformed (``HiveAnnotations``).
        public static let invalidAnnotation = Code(.invalidAnnotation)
        /// A passed socket or the descriptor store a module asked for is not there.
        public static let unavailable = Code(.unavailable)

        /// The code's name, as its static property spells it (`handlerFailed`).
        public var description: String { base.rawValue }
    }

    /// What kind of error this is.
    public let code: Code
    /// The module concerned, if any.
    public let module: String?
    /// The event being delivered, if any.
    public let event: HiveEvent?
    /// The configuration file and line, if any.
    public let location: SourceLocation?
    /// What happened, in a sentence.
    public let message: String
    /// The error a module threw, if any.
    public let underlying: (any Error)?

    /// An error of kind `code` saying `message`, with what it concerns.
    public init(
        _ code: Code,
        module: String? = nil,
        event: HiveEvent? = nil,
        location: SourceLocation? = nil,
        _ message: String,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.module = module
        self.event = event
        self.location = location
        self.message = message
        self.underlying = underlying
    }

    /// `file:line: module 'x' (event init): message`, leaving out what is unknown. The
    /// module's name is quoted as every value in an error is, cut to 80 characters
    /// (``module`` keeps it whole).
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        if let module, !module.isEmpty {
            text += "module \(quoted: module)"
            if let event { text += " (\(event))" }
            text += ": "
        } else if let event {
            text += "\(event): "
        }
        return text + message
    }
}
