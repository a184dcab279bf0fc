import HiveKit
/// The YAML 1.1 type of a scalar: from its explicit tag (`!!str 5`), else resolved from
/// the text of a plain scalar by ``PlainScalar``; quoted scalars are strings.
enum ScalarType {
    case null, bool, int, float, string
    /// `<<`, YAML 1.1's merge key.
    case merge

    /// The type an explicit tag names, `nil` for a tag HiveKit does not know.
    init?(tag: String) {
        switch tag {
        case "!", "tag:yaml.org,2002:str": self = .string
        case "tag:yaml.org,2002:int": self = .int
        case "tag:yaml.org,2002:bool": self = .bool
        case "tag:yaml.org,2002:float": self = .float
        case "tag:yaml.org,2002:null": self = .null
        default: return nil
        }
    }
}
