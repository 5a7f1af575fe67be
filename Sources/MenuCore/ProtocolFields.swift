/// Data lines are tab-separated records. Fields are escaped so that a title with a tab
/// or a newline cannot break a record apart: that keeps every record on one line, and
/// `cut -f` and `IFS=$'\t' read` keep working on any menu.
public enum ProtocolFields {
    /// `\` → `\\`, tab → `\t`, newline → `\n`, carriage return → `\r` (the rule
    /// ``RecordWriter`` writes by).
    public static func escape(_ field: String) -> String {
        guard needsEscaping(field) else { return field }
        var writer = RecordWriter()
        writer.field(field)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The inverse of `escape`. An unknown escape keeps its character, so a newer
    /// daemon's escapes degrade instead of failing.
    /// Whether `field` holds a byte that ``escape(_:)`` rewrites; almost none does.
    private static func needsEscaping(_ field: String) -> Bool {
        if let found = field.utf8.withContiguousStorageIfAvailable({
            $0.contains(where: RecordWriter.needsEscape)
        }) {
            return found
        }
        return field.utf8.contains(where: RecordWriter.needsEscape)
    }

    public static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var out = ""
        var escaping = false
        for ch in field.unicodeScalars {
            if escaping {
                switch ch {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(ch)
            }
        }
        if escaping { out += "\\" }
        return out
    }

    /// One data line from its fields.
    public static func record(_ fields: [String]) -> String {
        var writer = RecordWriter()
        for field in fields { writer.field(field) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The fields of one data line.
    /// `fields` joined by tabs, or nil when a field needs escaping or is not stored
    /// contiguously.
    private static func plainRecord(_ fields: [String]) -> String? {
        var length = max(0, fields.count - 1)
        for field in fields {
            guard !needsEscaping(field) else { return nil }
            length += field.utf8.count
        }
        var contiguous = true
        let record = String(unsafeUninitializedCapacity: length) { buffer in
            var at = 0
            for (i, field) in fields.enumerated() {
                if i > 0 {
                    buffer[at] = UInt8(ascii: "\t")
                    at += 1
                }
                let copied = field.utf8.withContiguousStorageIfAvailable { bytes -> Int in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
                    UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(
                        from: base, byteCount: bytes.count)
                    return bytes.count
                }
                guard let copied else {
                    contiguous = false
                    return 0
                }
                at += copied
            }
            return at
        }
        return contiguous ? record : nil
    }

    public static func fields(of line: String) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map(unescape)
    }
}
