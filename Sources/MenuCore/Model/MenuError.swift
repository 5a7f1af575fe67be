/// Why a model operation was refused. The protocol names each case with an error
/// code of its own (MenuProtocol's `ErrorCode`); the model only says what went wrong.
public enum MenuError: Error, Sendable, Hashable, CustomStringConvertible {
    case noSuchNode(String)
    case notExpandable(String)
    case notAValue(String)
    case invalidValue(path: String, reason: String)
    /// `step` on a node that is not a range: what kind it is, for the message.
    case notARange(String, kind: NodeKind)
    case notActivatable(String)
    case noSuchRow(Int)
    case badPath(String)
    case notAMenu(String)
    /// A `find` query or limit that cannot be searched with, and why.
    case badQuery(String)
    /// `nav key`: no child of the group (its path; empty for the top-level menus)
    /// has the key.
    case noSuchKey(group: String, key: Character)

    public var message: String {
        switch self {
        case .noSuchNode(let p): return "no node at '\(p)'"
        case .badPath(let p): return "'\(p)' is not a path (ids joined by '/')"
        case .notExpandable(let p): return "'\(p)' has no children to expand"
        case .notAValue(let p): return "'\(p)' holds no value"
        case .invalidValue(let p, let reason): return "\(p): \(reason)"
        case .notARange(let p, let kind):
            let article = kind == .item || kind == .option ? "an" : "a"
            let hint = kind.holdsValue ? ": use set" : ""
            return "'\(p)' is \(article) \(kind.rawValue), not a range\(hint)"
        case .notActivatable(let p): return "'\(p)' needs a value: use set"
        case .noSuchRow(let n): return "no visible row \(n)"
        case .notAMenu(let p): return "'\(p)' is not a top-level menu"
        case .badQuery(let reason): return reason
        case .noSuchKey(let group, let key):
            return group.isEmpty
                ? "no top-level menu has the key '\(key)'" : "no child of '\(group)' has the key '\(key)'"
        }
    }

    public var description: String { message }
}
