/// The keys a node mapping may hold, and which node kinds each applies to. Kept in
/// one table so that the "does not apply" check, the docs and the spelling
/// suggestions cannot disagree.
enum NodeKey: String, CaseIterable {
    case id
    case title
    case subtitle
    case icon
    case type
    case children
    case expanded
    case exclusive
    case exec
    case value
    case options
    case min
    case max
    case step
    case onChange = "on-change"

    func applies(to kind: NodeKind) -> Bool {
        switch self {
        case .id, .title, .subtitle, .icon, .type: return true
        case .children, .exclusive: return kind == .group
        case .expanded: return kind == .group || kind == .choice
        case .exec: return kind == .item
        case .value, .onChange: return kind.holdsValue
        case .options: return kind == .choice
        case .min, .max, .step: return kind == .range
        }
    }

    var bit: UInt32 { 1 << UInt32(NodeKey.allCases.firstIndex(of: self)!) }

    static let names = allCases.map(\.rawValue)
}

extension NodeKind {
    /// The kind's name with its article, for messages such as "does not apply to an item".
    var withArticle: String {
        switch self {
        case .item, .option: return "an \(rawValue)"
        default: return "a \(rawValue)"
        }
    }
}
