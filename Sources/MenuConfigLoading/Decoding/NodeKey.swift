import MenuCore

/// The keys a node mapping may hold, and which node kinds each applies to. Kept in
/// one table so that the "does not apply" check, the docs and the spelling
/// suggestions cannot disagree: a key's number is its case's, and its spelling, and
/// the lookup of a key from its bytes, come from ``spellings``.
enum NodeKey: Int, CaseIterable {
    case id, title, subtitle, icon, type, children, expanded, exclusive, exec, value, options, min, max, step,
        onChange, childrenCommand, confirm, valueCommand, valueListen, interval, refresh, childrenFrom, key,
        keywords

    /// Each key's spelling, in the order of the cases.
    private static let spellings: [StaticString] = [
        "id",
        "title",
        "subtitle",
        "icon",
        "type",
        "children",
        "expanded",
        "exclusive",
        "exec",
        "value",
        "options",
        "min",
        "max",
        "step",
        "on-change",
        "children-cmd",
        "confirm",
        "value-cmd",
        "value-listen",
        "interval",
        "refresh",
        "children-from",
        "key",
        "keywords",
    ]

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
    @inline(__always) var index: Int { rawValue }

    var bit: UInt32 { 1 << UInt32(index) }

    /// How the config spells it.
    var name: String { Self.names[rawValue] }

    /// The key spelt `name`.
    init?(name: String) {
        var name = name
        guard let key = name.withUTF8({ NodeKey(utf8: $0) }) else { return nil }
        self = key
    }

    /// The key spelt by `b`. Every key of every node goes through here, straight
    /// from libyaml's buffer; `init(rawValue:)` on a `String` would need one made and
    /// compared with each spelling in turn, while the length and first byte narrow it
    /// to one (``lookup``).
    init?(utf8 b: UnsafeBufferPointer<UInt8>) {
        guard let p = b.baseAddress, b.count >= 1, b.count <= Self.lookup.longest else { return nil }
        var candidate = Int(Self.lookup.first[b.count &* 256 &+ Int(p[0])])
        while candidate >= 0 {
            let spelling = Self.spellings[candidate]
            if spelling.utf8CodeUnitCount == b.count {
                let q = spelling.utf8Start
                var i = 1
                while i < b.count, q[i] == p[i] { i += 1 }
                if i == b.count {
                    self.init(rawValue: candidate)
                    return
                }
            }
            candidate = Int(Self.lookup.next[candidate])
        }
        return nil
    }

    /// Made from ``spellings`` once: by a spelling's length and first byte
    /// (`length * 256 + byte`), the first key spelt so (-1 for none), and for each
    /// key the next one of the same length and first byte (`min` and `max`).
    private static let lookup: (first: [Int8], next: [Int8], longest: Int) = {
        let longest = spellings.map(\.utf8CodeUnitCount).max() ?? 0
        var first = [Int8](repeating: -1, count: (longest + 1) * 256)
        var next = [Int8](repeating: -1, count: spellings.count)
        for (k, spelling) in spellings.enumerated().reversed() {
            let slot = spelling.utf8CodeUnitCount * 256 + Int(spelling.utf8Start[0])
            next[k] = first[slot]
            first[slot] = Int8(k)
        }
        return (first, next, longest)
    }()

    static let all = allCases

    static let names = spellings.map { "\($0)" }
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
