import CSystemd

/// A D-Bus value, with the signature it is sent as: what a published object
/// answers, what a call sends, and what ``BusMessage/readValue()`` reads of a
/// system service's answer. Only ``BusMessage`` writes and reads them.
public indirect enum BusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case signature(String)
    case byte(UInt8)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
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
        case .signature: return "g"
        case .byte: return "y"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
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
        case (.string(let x), .string(let y)), (.objectPath(let x), .objectPath(let y)),
            (.signature(let x), .signature(let y)):
            return x == y
        case (.byte(let x), .byte(let y)): return x == y
        case (.int16(let x), .int16(let y)): return x == y
        case (.uint16(let x), .uint16(let y)): return x == y
        case (.int32(let x), .int32(let y)): return x == y
        case (.uint32(let x), .uint32(let y)): return x == y
        case (.int64(let x), .int64(let y)): return x == y
        case (.uint64(let x), .uint64(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
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

extension BusValue {
    /// The string, object path or signature this is, through any variants.
    public var text: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.text
        default: nil
        }
    }

    /// The whole number this is, of any width, through any variants.
    public var integer: Int? {
        switch self {
        case .byte(let n): Int(n)
        case .int16(let n): Int(n)
        case .uint16(let n): Int(n)
        case .int32(let n): Int(n)
        case .uint32(let n): Int(n)
        case .int64(let n): Int(n)
        case .uint64(let n): Int(exactly: n)
        case .variant(let inner): inner.integer
        default: nil
        }
    }

    /// The number this is, whole or not, through any variants.
    public var number: Double? {
        if case .double(let d) = self { return d }
        if case .variant(let inner) = self { return inner.number }
        return integer.map(Double.init)
    }

    public var boolean: Bool? {
        switch self {
        case .bool(let b): b
        case .variant(let inner): inner.boolean
        default: nil
        }
    }

    /// The elements of an array, through any variants; a dictionary's values.
    public var elements: [BusValue]? {
        switch self {
        case .array(_, let elements): elements
        case .dictionary(_, let entries): entries.map(\.value)
        case .variant(let inner): inner.elements
        default: nil
        }
    }

    /// The entries of a dictionary with string keys, through any variants.
    public var entries: [String: BusValue]? {
        switch self {
        case .dictionary(_, let entries):
            Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        case .variant(let inner): inner.entries
        default: nil
        }
    }

    /// The value inside any variants.
    public var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}
