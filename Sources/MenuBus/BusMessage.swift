import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// One sd-bus message, held by reference for as long as this value lives: the
/// arguments of a call or signal are read from it, and what is sent is written into
/// it. Reading goes forward through the arguments, as sd-bus does.
public final class BusMessage {
    let raw: OpaquePointer

    /// Takes a reference of its own to `raw`.
    init(retaining raw: OpaquePointer) {
        self.raw = sd_bus_message_ref(raw)
    }

    /// Takes over the reference the caller holds (a message just made).
    init(adopting raw: OpaquePointer) {
        self.raw = raw
    }

    deinit { sd_bus_message_unref(raw) }

    /// The unique name of the connection that sent it.
    public var sender: String? { sd_bus_message_get_sender(raw).map { String(cString: $0) } }
    public var member: String? { sd_bus_message_get_member(raw).map { String(cString: $0) } }
    public var path: String? { sd_bus_message_get_path(raw).map { String(cString: $0) } }

    // MARK: reading

    public func readInt32() throws(BusError) -> Int32 { try read("i", as: 0) }

    public func readUInt32() throws(BusError) -> UInt32 { try read("u", as: 0) }

    public func readString() throws(BusError) -> String { try readText("s") }

    /// An `as`.
    public func readStrings() throws(BusError) -> [String] {
        try readArray(of: "s") { () throws(BusError) in try readString() }
    }

    /// An `ai`.
    public func readInt32s() throws(BusError) -> [Int32] {
        try readArray(of: "i") { () throws(BusError) in try readInt32() }
    }

    /// Goes past one value of signature `type` without reading it.
    public func skip(_ type: String) throws(BusError) {
        try check("sd_bus_message_skip \(type)", sd_bus_message_skip(raw, type))
    }

    /// Reads an array's elements with `element` until its end.
    public func readArray<T>(of contents: String, _ element: () throws(BusError) -> T) throws(BusError) -> [T]
    {
        try enter(CChar(UInt8(ascii: "a")), contents)
        var elements: [T] = []
        while true {
            let more = try check("sd_bus_message_at_end", sd_bus_message_at_end(raw, 0))
            if more != 0 { break }
            elements.append(try element())
        }
        try check("sd_bus_message_exit_container", sd_bus_message_exit_container(raw))
        return elements
    }

    /// Reads a structure's members with `members`.
    public func readStructure<T>(_ contents: String, _ members: () throws(BusError) -> T) throws(BusError)
        -> T
    {
        try enter(CChar(UInt8(ascii: "r")), contents)
        let value = try members()
        try check("sd_bus_message_exit_container", sd_bus_message_exit_container(raw))
        return value
    }

    private func enter(_ type: CChar, _ contents: String) throws(BusError) {
        let rc = try check(
            "sd_bus_message_enter_container", sd_bus_message_enter_container(raw, type, contents))
        if rc == 0 { throw BusError("sd_bus_message_enter_container: no \(contents) here", -ENXIO) }
    }

    private func readBasic<T>(_ type: Unicode.Scalar, _ value: inout T) throws(BusError) {
        let rc = try check(
            "sd_bus_message_read_basic \(type)",
            withUnsafeMutablePointer(to: &value) {
                sd_bus_message_read_basic(raw, CChar(UInt8(ascii: type)), $0)
            })
        if rc == 0 { throw BusError("sd_bus_message_read_basic \(type): no more arguments", -ENXIO) }
    }

    /// Whether every argument has been read.
    public var isAtEnd: Bool { sd_bus_message_at_end(raw, 0) > 0 }

    /// The next argument, whatever its type: for an answer whose shape is the
    /// service's, read without trusting it. A dictionary whose keys are not strings
    /// is read as an array of its entries, each a structure of key and value.
    public func readValue() throws(BusError) -> BusValue {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let rc = try check("sd_bus_message_peek_type", sd_bus_message_peek_type(raw, &type, &contents))
        if rc == 0 { throw BusError("sd_bus_message_peek_type: no more arguments", -ENXIO) }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"): return .string(try readString())
        case UInt8(ascii: "o"): return .objectPath(try readText("o"))
        case UInt8(ascii: "g"): return .signature(try readText("g"))
        case UInt8(ascii: "y"): return .byte(try read("y", as: 0))
        case UInt8(ascii: "n"): return .int16(try read("n", as: 0))
        case UInt8(ascii: "q"): return .uint16(try read("q", as: 0))
        case UInt8(ascii: "i"): return .int32(try readInt32())
        case UInt8(ascii: "u"): return .uint32(try readUInt32())
        case UInt8(ascii: "x"): return .int64(try read("x", as: 0))
        case UInt8(ascii: "t"): return .uint64(try read("t", as: 0))
        case UInt8(ascii: "d"): return .double(try read("d", as: 0))
        // sd-bus reads a boolean as a C int.
        case UInt8(ascii: "b"): return .bool(try read("b", as: Int32(0)) != 0)
        // A descriptor is a number here: nothing in a menu keeps one.
        case UInt8(ascii: "h"): return .int32(try read("h", as: 0))
        case UInt8(ascii: "v"):
            try enter("v", inner)
            let value = try readValue()
            try exit()
            return .variant(value)
        case UInt8(ascii: "r"):
            try enter("r", inner)
            var members: [BusValue] = []
            while !isAtEnd { members.append(try readValue()) }
            try exit()
            return .structure(members)
        case UInt8(ascii: "a") where inner.hasPrefix("{s"):
            let valueType = String(inner.dropFirst(2).dropLast())
            try enter("a", inner)
            var entries: [(key: String, value: BusValue)] = []
            while !isAtEnd {
                try enter("e", String(inner.dropFirst().dropLast()))
                let key = try readString()
                let value = try readValue()
                try exit()
                entries.append((key, value))
            }
            try exit()
            return .dictionary(value: valueType, entries)
        case UInt8(ascii: "a"):
            try enter("a", inner)
            var elements: [BusValue] = []
            while !isAtEnd {
                if inner.hasPrefix("{") {
                    try enter("e", String(inner.dropFirst().dropLast()))
                    var members: [BusValue] = []
                    while !isAtEnd { members.append(try readValue()) }
                    try exit()
                    elements.append(.structure(members))
                } else {
                    elements.append(try readValue())
                }
            }
            try exit()
            return .array(element: inner, elements)
        default:
            throw BusError(
                "sd_bus_message_peek_type: type \(UnicodeScalar(UInt8(bitPattern: type)))", -EBADMSG)
        }
    }

    /// The next argument, of basic `type`, which is read into a `T` (`zero` gives
    /// the type).
    private func read<T>(_ type: Unicode.Scalar, as zero: T) throws(BusError) -> T {
        var value = zero
        try readBasic(type, &value)
        return value
    }

    /// The next argument, a string, an object path or a signature.
    private func readText(_ type: Unicode.Scalar) throws(BusError) -> String {
        var text: UnsafePointer<CChar>?
        try readBasic(type, &text)
        return text.map { String(cString: $0) } ?? ""
    }

    private func enter(_ type: Unicode.Scalar, _ contents: String) throws(BusError) {
        try check(
            "sd_bus_message_enter_container \(type)\(contents)",
            sd_bus_message_enter_container(raw, CChar(UInt8(ascii: type)), contents))
    }

    private func exit() throws(BusError) {
        try check("sd_bus_message_exit_container", sd_bus_message_exit_container(raw))
    }

    // MARK: writing

    /// Appends `value` (for a property, inside the variant sd-bus has opened).
    public func append(_ value: BusValue) throws(BusError) {
        switch value {
        case .string(let s): try appendString("s", s)
        case .objectPath(let s): try appendString("o", s)
        case .signature(let s): try appendString("g", s)
        case .byte(var n): try appendBasic("y", &n)
        case .int16(var n): try appendBasic("n", &n)
        case .uint16(var n): try appendBasic("q", &n)
        case .int32(var n): try appendBasic("i", &n)
        case .uint32(var n): try appendBasic("u", &n)
        case .int64(var n): try appendBasic("x", &n)
        case .uint64(var n): try appendBasic("t", &n)
        case .double(var d): try appendBasic("d", &d)
        case .bool(let b):
            var n: Int32 = b ? 1 : 0
            try appendBasic("b", &n)
        case .array(let element, let elements):
            try open("a", element)
            for e in elements { try append(e) }
            try close()
        case .structure(let members):
            try open("r", members.map(\.signature).joined())
            for m in members { try append(m) }
            try close()
        case .variant(let inner):
            try open("v", inner.signature)
            try append(inner)
            try close()
        case .dictionary(let valueType, let entries):
            try open("a", "{s" + valueType + "}")
            for entry in entries {
                try open("e", "s" + valueType)
                try appendString("s", entry.key)
                try append(entry.value)
                try close()
            }
            try close()
        }
    }

    private func appendString(_ type: Unicode.Scalar, _ s: String) throws(BusError) {
        // D-Bus strings cannot hold NUL; sd-bus would refuse the message.
        let text =
            s.utf8.contains(0) ? String(String.UnicodeScalarView(s.unicodeScalars.filter { $0 != "\0" })) : s
        try check(
            "sd_bus_message_append_basic \(type)",
            text.withCString { sd_bus_message_append_basic(raw, CChar(UInt8(ascii: type)), $0) })
    }

    private func appendBasic<T>(_ type: Unicode.Scalar, _ value: inout T) throws(BusError) {
        try check(
            "sd_bus_message_append_basic \(type)",
            withUnsafePointer(to: &value) { sd_bus_message_append_basic(raw, CChar(UInt8(ascii: type)), $0) })
    }

    private func open(_ type: Unicode.Scalar, _ contents: String) throws(BusError) {
        try check(
            "sd_bus_message_open_container \(type)\(contents)",
            sd_bus_message_open_container(raw, CChar(UInt8(ascii: type)), contents))
    }

    private func close() throws(BusError) {
        try check("sd_bus_message_close_container", sd_bus_message_close_container(raw))
    }
}
