/// What a node is. The config's `type:` names all but `option`, which the loader
/// makes from a choice's `options:` so that a picked value is an ordinary child row.
public enum NodeKind: String, Sendable, CaseIterable, Hashable {
    case group
    case item
    case toggle
    case choice
    case option
    case range
    case text
    case date

    /// Kinds whose children can be shown and hidden.
    public var isExpandable: Bool { self == .group || self == .choice }

    /// Kinds that hold a value that `set` can change.
    public var holdsValue: Bool {
        switch self {
        case .toggle, .choice, .range, .text, .date: return true
        case .group, .item, .option: return false
        }
    }

    /// The kinds a config may name in `type:`.
    public static let configurable: [NodeKind] = [.group, .item, .toggle, .choice, .range, .text, .date]
}
