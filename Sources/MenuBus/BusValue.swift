import CSystemd

/// A D-Bus value to send, with the signature it is sent as. Whoever publishes an
/// object describes its answers with these, and only ``BusMessage`` writes them.
public indirect enum BusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case int32(Int32)
    case uint32(UInt32)
    case bool(Bool)
    /// An array whose elements all have the signature `element`, given for the empty
    /// array's sake.
    case array(element: String, [BusValue])
    case structure([BusValue])
    case variant(BusValue)
    /// A dictionary with string keys (`a{s…}`), its values of signature `value`.
    case dictionary(value: String, [(key: String, value: BusValue)])

    public var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .int32: return "i"
        case .uint32: return "u"
        case .bool: return "b"
        case .array(let element, _): return "a" + element
        case .structure(let members): return "(" + members.map(\.signature).joined() + ")"
        case .variant: return "v"
        case .dictionary(let value, _): return "a{s" + value + "}"
        }
    }

    /// `a{sv}`, the usual shape of a set of named properties.
    public static func properties(_ entries: [(String, BusValue)]) -> BusValue {
        .dictionary(value: "v", entries.map { (key: $0.0, value: .variant($0.1)) })
    }

    public static func == (a: BusValue, b: BusValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)), (.objectPath(let x), .objectPath(let y)): return x == y
        case (.int32(let x), .int32(let y)): return x == y
        case (.uint32(let x), .uint32(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.array(let e, let x), .array(let f, let y)): return e == f && x == y
        case (.structure(let x), .structure(let y)): return x == y
        case (.variant(let x), .variant(let y)): return x == y
        case (.dictionary(let v, let x), .dictionary(let w, let y)):
            return v == w && x.count == y.count
                && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}
