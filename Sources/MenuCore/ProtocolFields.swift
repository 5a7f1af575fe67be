/// Data lines are tab-separated records. Fields are escaped so that a title with a tab
/// or a newline cannot break a record apart: that keeps every record on one line, and
/// `cut -f` and `IFS=$'\t' read` keep working on any menu.
public enum ProtocolFields {
    /// `\` → `\\`, tab → `\t`, newline → `\n`, carriage return → `\r`.
    public static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            return field
        }
        var out = ""
        out.reserveCapacity(field.utf8.count + 4)
        for ch in field.unicodeScalars {
            switch ch {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// The inverse of `escape`. An unknown escape keeps its character, so a newer
    /// daemon's escapes degrade instead of failing.
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
        // Built in one buffer: every reply and event line passes through here.
        var out = ""
        out.reserveCapacity(fields.reduce(fields.count) { $0 + $1.utf8.count })
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append("\t") }
            out.append(escape(field))
        }
        return out
    }

    /// The fields of one data line.
    public static func fields(of line: String) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map(unescape)
    }
}
