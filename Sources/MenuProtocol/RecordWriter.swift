import MenuCore

/// Data lines written straight into protocol bytes: fields joined by tabs and escaped
/// by ``ProtocolFields``' rule, each line ended by a newline.
///
/// Replies are written through this rather than built as a `String` per field and
/// per line: the model's work for a `get` or `toggle` is small enough that making and
/// joining strings would cost more than it (BENCHMARKS.md, "Notes").
public struct RecordWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Fields written since the last line ended, to put a tab before all but the first.
    private var fieldsInLine = 0

    public init() {}

    /// One line as a `String` without its newline: what `write` writes, for the
    /// callers that want a record rather than bytes.
    public static func line(_ write: (inout RecordWriter) -> Void) -> String {
        var writer = RecordWriter()
        write(&writer)
        if writer.bytes.last == UInt8(ascii: "\n") { writer.bytes.removeLast() }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // Inlinable: the daemon reads these around every command it runs.
    @inlinable public var isEmpty: Bool { bytes.isEmpty }

    /// How many bytes are written: a mark to ``truncate(to:)`` back to.
    @inlinable public var count: Int { bytes.count }

    /// Drops everything written after `mark`, such as the lines of a command that
    /// failed halfway.
    public mutating func truncate(to mark: Int) {
        // `removeSubrange(0...)` gives the storage up; the connection truncates to
        // zero after every write and would allocate again for the next reply.
        if mark == 0 { bytes.removeAll(keepingCapacity: true) } else { bytes.removeSubrange(mark...) }
        fieldsInLine = 0
    }

    /// A whole line that is already in wire form (its fields escaped), and its newline.
    public mutating func append(line: String) {
        bytes.append(contentsOf: line.utf8)
        endLine()
    }

    /// `OK` and its newline: the line every reply but an error ends with, written a
    /// byte at a time, which costs less than taking the bytes of a `String`.
    mutating func appendOK() {
        if bytes.capacity == 0 { bytes.reserveCapacity(256) }
        bytes.append(UInt8(ascii: "O"))
        bytes.append(UInt8(ascii: "K"))
        bytes.append(UInt8(ascii: "\n"))
        fieldsInLine = 0
    }

    /// The rest of the current line, in wire form already and with its newline: a
    /// record that follows the fields written so far, such as an event's.
    public mutating func append(line record: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: record)
        fieldsInLine = 0
    }

    /// The same from bytes kept elsewhere, such as a node's cached row.
    public mutating func append(line record: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(contentsOf: record)
        fieldsInLine = 0
    }

    /// Swaps this writer's bytes with `other`, to write into storage kept elsewhere
    /// without copying it in or out. Starts a new line.
    public mutating func exchangeBytes(with other: inout [UInt8]) {
        swap(&bytes, &other)
        fieldsInLine = 0
    }

    /// Whole lines written by another writer.
    public mutating func append(contentsOf other: RecordWriter) {
        fieldsInLine = 0
        // Taking the other's storage saves a copy only when this one has no room;
        // otherwise it would give up this writer's storage, kept to be written again.
        if bytes.isEmpty, bytes.capacity < other.bytes.count {
            bytes = other.bytes
        } else {
            bytes.append(contentsOf: other.bytes)
        }
    }

    /// A text field, escaped.
    public mutating func field(_ text: String) {
        separate()
        // The string's own bytes, without copying the string first; every field of
        // every reply comes through here.
        if let done = text.utf8.withContiguousStorageIfAvailable({ source -> Bool in
            for byte in source where Self.needsEscape(byte) { return false }
            bytes.append(contentsOf: source)
            return true
        }), done {
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }

    /// The path of node `n` as a field, written from the tree's ids without making
    /// a `String`: ids are letters, digits, `.`, `_` and `-`, which need no escaping.
    public mutating func field(pathOf n: Int, in model: MenuModel) {
        separate()
        model.appendPath(of: n, to: &bytes)
    }

    /// A field of a few bytes that need no escaping, such as a record's tag, written a
    /// byte at a time: for so few, appending them as a `String`'s costs several times
    /// more than they do.
    public mutating func field(literal text: StaticString) {
        separate()
        let start = text.utf8Start
        for i in 0..<text.utf8CodeUnitCount {
            assert(!Self.needsEscape(start[i]), "a literal field needs no escaping")
            bytes.append(start[i])
        }
    }

    /// A number field, printed as ``Value/format(_:)`` prints it.
    public mutating func field(_ number: Double) {
        if let whole = Value.integral(number) { field(whole) } else { field(Value.format(number)) }
    }

    /// A field of two integers and a separator between them, such as `2/3`.
    public mutating func field(_ first: Int, _ separator: UInt8, _ second: Int) {
        field(first)
        bytes.append(separator)
        appendDecimal(second)
    }

    /// A decimal integer field.
    public mutating func field(_ number: Int) {
        separate()
        appendDecimal(number)
    }

    private mutating func appendDecimal(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // Most numbers in a record (depths, positions, counts) are small.
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        if magnitude < 100 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 10))
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            return
        }
        // The digits from the last, on the stack, then appended at once: appending
        // them one by one cost more than making them (event numbers run to five
        // digits and more, on every event line).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }

    /// Ends the current line.
    public mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        fieldsInLine = 0
    }

    /// One whole line of `fields`.
    public mutating func record(_ fields: [String]) {
        for field in fields { self.field(field) }
        endLine()
    }

    @inline(__always)
    private mutating func separate() {
        // Room for a typical reply at once, instead of growing through 16, 32, 64….
        if bytes.capacity == 0 { bytes.reserveCapacity(256) }
        if fieldsInLine > 0 { bytes.append(UInt8(ascii: "\t")) }
        fieldsInLine += 1
    }

    static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
