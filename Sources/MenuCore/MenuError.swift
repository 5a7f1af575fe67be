/// Why a model operation was refused. `code` is the stable protocol error code, so
/// the daemon maps errors to `ERR <code> <message>` without a table of its own.
public enum MenuError: Error, Sendable, Hashable, CustomStringConvertible {
    case noSuchNode(String)
    case notExpandable(String)
    case notAValue(String)
    case invalidValue(path: String, reason: String)
    case notActivatable(String)
    case noSuchRow(Int)
    case badPath(String)
    case notAMenu(String)

    public var code: String {
        switch self {
        case .noSuchNode, .badPath: return "no-such-node"
        case .notExpandable: return "not-expandable"
        case .notAValue: return "not-a-value"
        case .invalidValue: return "invalid-value"
        case .notActivatable: return "not-activatable"
        case .noSuchRow: return "no-such-row"
        case .notAMenu: return "not-a-menu"
        }
    }

    public var message: String {
        switch self {
        case .noSuchNode(let p): return "no node at '\(p)'"
        case .badPath(let p): return "'\(p)' is not a path (ids joined by '/')"
        case .notExpandable(let p): return "'\(p)' has no children to expand"
        case .notAValue(let p): return "'\(p)' holds no value"
        case .invalidValue(let p, let reason): return "\(p): \(reason)"
        case .notActivatable(let p): return "'\(p)' needs a value: use set"
        case .noSuchRow(let n): return "no visible row \(n)"
        case .notAMenu(let p): return "'\(p)' is not a top-level menu"
        }
    }

    public var description: String { "\(code): \(message)" }
}
