/// Data lines are tab-separated records. Fields are escaped so that a title with a tab
/// or a newline cannot break a record apart: that keeps every record on one line, and
/// `cut -f` and `IFS=$'\t' read` keep working on any menu.
public enum ProtocolFields {
    /// `\` → `\\`, tab → `\t`, newline → `\n`, carriage return → `\r` (the rule
    /// ``RecordWriter`` writes by).
    public static func escape(_ field: String) -> String {
        guard needsEscaping(field) else { return field }
        return RecordWriter.line { $0.field(field) }
    }

    /// Whether `field` holds a byte that ``escape(_:)`` rewrites; almost none does.
    private static func needsEscaping(_ field: String) -> Bool {
        if let found = field.utf8.withContiguousStorageIfAvailable({
            $0.contains(where: RecordWriter.needsEscape)
        }) {
            return found
        }
        return field.utf8.contains(where: RecordWriter.needsEscape)
    }

    /// The inverse of `escape`. An unknown escape keeps its character, so a newer
    /// daemon's escapes degrade instead of failing.
    public static func unescape(_ field: Substring) -> String {
        guard field.utf8.contains(UInt8(ascii: "\\")) else { return String(field) }
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
        RecordWriter.line { $0.record(fields) }
    }

    /// The fields of one data line.
    public static func fields(of line: String) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map(unescape)
    }

    /// Field `n` (from 0) of one data line, or nil when it has fewer: a line read for
    /// one field does not pay for splitting and unescaping the others.
    public static func field(_ n: Int, of line: String) -> String? {
        var line = line
        return line.withUTF8 { bytes -> String? in
            let tab = UInt8(ascii: "\t")
            var start = 0
            for _ in 0..<n {
                guard let found = bytes[start...].firstIndex(of: tab) else { return nil }
                start = found + 1
            }
            let end = bytes[start...].firstIndex(of: tab) ?? bytes.count
            let field = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            return unescape(field[...])
        }
    }
}
