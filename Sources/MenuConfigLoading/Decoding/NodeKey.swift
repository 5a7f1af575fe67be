import MenuCore

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
    case childrenCommand = "children-cmd"
    case confirm
    case valueCommand = "value-cmd"
    case valueListen = "value-listen"
    case interval
    case refresh
    case childrenFrom = "children-from"
    case key
    case keywords

    func applies(to kind: NodeKind) -> Bool {
        switch self {
        case .id, .title, .subtitle, .icon, .type, .key, .keywords: return true
        case .children, .exclusive, .childrenCommand, .refresh, .childrenFrom: return kind == .group
        case .expanded: return kind == .group || kind == .choice
        case .exec, .confirm: return kind == .item
        case .value, .onChange, .valueCommand, .valueListen, .interval: return kind.holdsValue
        case .options: return kind == .choice
        case .min, .max, .step: return kind == .range
        }
    }

    /// The case's position, a stable small number for bit sets and inline tables.
    var index: Int {
        switch self {
        case .id: return 0
        case .title: return 1
        case .subtitle: return 2
        case .icon: return 3
        case .type: return 4
        case .children: return 5
        case .expanded: return 6
        case .exclusive: return 7
        case .exec: return 8
        case .value: return 9
        case .options: return 10
        case .min: return 11
        case .max: return 12
        case .step: return 13
        case .onChange: return 14
        case .childrenCommand: return 15
        case .confirm: return 16
        case .valueCommand: return 17
        case .valueListen: return 18
        case .interval: return 19
        case .refresh: return 20
        case .childrenFrom: return 21
        case .key: return 22
        case .keywords: return 23
        }
    }

    var bit: UInt32 { 1 << UInt32(index) }

    /// The key spelt `name`.
    init?(name: String) {
        var name = name
        guard let key = name.withUTF8({ NodeKey(utf8: $0) }) else { return nil }
        self = key
    }

    /// The key spelt by `b`. Every key of every node goes through here, straight
    /// from libyaml's buffer; `init(rawValue:)` would need a `String` and compare it
    /// with each case in turn, while the length and first letter narrow it to one.
    init?(utf8 b: UnsafeBufferPointer<UInt8>) {
        guard let p = b.baseAddress, b.count >= 2 else { return nil }
        let candidate: NodeKey
        switch (b.count, p[0]) {
        case (2, UInt8(ascii: "i")): candidate = .id
        case (5, UInt8(ascii: "t")): candidate = .title
        case (8, UInt8(ascii: "s")): candidate = .subtitle
        case (4, UInt8(ascii: "i")): candidate = .icon
        case (4, UInt8(ascii: "t")): candidate = .type
        case (8, UInt8(ascii: "c")): candidate = .children
        case (8, UInt8(ascii: "e")): candidate = .expanded
        case (9, UInt8(ascii: "e")): candidate = .exclusive
        case (4, UInt8(ascii: "e")): candidate = .exec
        case (5, UInt8(ascii: "v")): candidate = .value
        case (7, UInt8(ascii: "o")): candidate = .options
        case (7, UInt8(ascii: "c")): candidate = .confirm
        case (3, UInt8(ascii: "m")): candidate = p[1] == UInt8(ascii: "i") ? .min : .max
        case (4, UInt8(ascii: "s")): candidate = .step
        case (9, UInt8(ascii: "o")): candidate = .onChange
        case (12, UInt8(ascii: "c")): candidate = .childrenCommand
        case (9, UInt8(ascii: "v")): candidate = .valueCommand
        case (12, UInt8(ascii: "v")): candidate = .valueListen
        case (8, UInt8(ascii: "i")): candidate = .interval
        case (7, UInt8(ascii: "r")): candidate = .refresh
        case (13, UInt8(ascii: "c")): candidate = .childrenFrom
        case (3, UInt8(ascii: "k")): candidate = .key
        case (8, UInt8(ascii: "k")): candidate = .keywords
        default: return nil
        }
        let spelling = candidate.spelling.utf8Start
        var i = 1
        while i < b.count {
            if spelling[i] != p[i] { return nil }
            i += 1
        }
        self = candidate
    }

    /// `rawValue` as a static string, whose bytes can be read without a copy;
    /// `NodeKeyTests` checks that the two agree. Inlined into ``init(utf8:)``, where
    /// the call cost a sixth of the lookup.
    @inline(__always) private var spelling: StaticString {
        switch self {
        case .id: return "id"
        case .title: return "title"
        case .subtitle: return "subtitle"
        case .icon: return "icon"
        case .type: return "type"
        case .children: return "children"
        case .expanded: return "expanded"
        case .exclusive: return "exclusive"
        case .exec: return "exec"
        case .value: return "value"
        case .options: return "options"
        case .min: return "min"
        case .max: return "max"
        case .step: return "step"
        case .onChange: return "on-change"
        case .childrenCommand: return "children-cmd"
        case .confirm: return "confirm"
        case .valueCommand: return "value-cmd"
        case .valueListen: return "value-listen"
        case .interval: return "interval"
        case .refresh: return "refresh"
        case .childrenFrom: return "children-from"
        case .key: return "key"
        case .keywords: return "keywords"
        }
    }

    static let all = allCases

    static let names = allCases.map(\.rawValue)
}

extension NodeKind {
    /// The `NodeKey.bit`s of the keys that apply to this kind, computed once per
    /// kind: every node asks.
    var applicableKeyBits: UInt32 {
        switch self {
        case .group: return NodeKind.keyBits.group
        case .item: return NodeKind.keyBits.item
        case .toggle: return NodeKind.keyBits.toggle
        case .choice: return NodeKind.keyBits.choice
        case .option: return NodeKind.keyBits.option
        case .range: return NodeKind.keyBits.range
        case .text: return NodeKind.keyBits.text
        case .date: return NodeKind.keyBits.date
        }
    }

    private static let keyBits = (
        group: bits(.group), item: bits(.item), toggle: bits(.toggle), choice: bits(.choice),
        option: bits(.option), range: bits(.range), text: bits(.text), date: bits(.date)
    )

    private static func bits(_ kind: NodeKind) -> UInt32 {
        NodeKey.all.reduce(0) { $1.applies(to: kind) ? $0 | $1.bit : $0 }
    }

    /// The kind's name with its article, for messages such as "does not apply to an item".
    var withArticle: String {
        switch self {
        case .item, .option: return "an \(rawValue)"
        default: return "a \(rawValue)"
        }
    }
}
