/// A declaration an annotation made, as ``HiveAnnotations/declarations()`` lists it.
public struct AnnotationDeclaration: Sendable, Hashable, CustomStringConvertible {
    /// What was declared.
    public enum Kind: Sendable, Hashable {
        /// A module type, under ``AnnotationDeclaration/name``.
        case module
        /// An implementation, under ``AnnotationDeclaration/name``, of the service named here.
        case service(String)
    }

    /// A module type or a service implementation.
    public let kind: Kind
    /// The name configurations use: the module type, or the implementation.
    public let name: String
    /// The source file (`Module/File.swift`) of the annotation.
    public let file: String
    /// Its line.
    public let line: Int
    /// The executable or shared object it is in.
    public let image: String

    /// `module type 'ShopModule'` or `implementation 'SystemClock' of service 'WallClock'`.
    var subject: String {
        switch kind {
        case .module: "module type '\(name)'"
        case .service(let service): "implementation '\(name)' of service '\(service)'"
        }
    }

    /// Where it is: `Shop/ShopModule.swift:12 in /usr/bin/hived`.
    public var place: String { "\(file):\(line) in \(image)" }

    /// What it declares and where: `module type 'ShopModule' at Shop/ShopModule.swift:12 in /usr/bin/hived`.
    public var description: String { "\(subject) at \(place)" }
}
