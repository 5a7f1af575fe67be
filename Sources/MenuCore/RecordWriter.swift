/// Data lines written straight into protocol bytes: fields joined by tabs and escaped
/// by ``ProtocolFields``' rule, each line ended by a newline.
///
/// Replies are written through this rather than built as a `String` per field and
/// per line: a `get` or `toggle` that a bar sends on every click is a few hundred
/// nanoseconds of model work, and making and joining strings cost several times that.
public struct RecordWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Fields written since the last line ended, to put a tab before all but the first.
    private var fieldsInLine = 0

    public init() {}

    public var isEmpty: Bool { bytes.isEmpty }

    /// A text field, escaped.
    public mutating func field(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { source in
            guard source.contains(where: Self.needsEscape) else {
                bytes.append(contentsOf: source)
                return
            }
            for byte in source {
                switch byte {
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                default: bytes.append(byte)
                }
            }
        }
    }

    /// A decimal integer field.
    public mutating func field(_ number: Int) {
        separate()
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if magnitude >= 10_000_000_000 {
            // Rare enough to take the slow way.
            bytes.append(contentsOf: String(magnitude).utf8)
            return
        }
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
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
