import MenuCore
import MenuProtocol

/// The `--json` form of rows, written by hand: menuctl stays free of Foundation so
/// that it starts fast.
enum RowJSON {
    static func array(_ rows: [RowRecord]) -> String {
        "[" + rows.map { object($0) }.joined(separator: ",") + "]"
    }

    /// One row as an object; `extra` members (already JSON) come last.
    static func object(_ row: RowRecord, extra: [(String, String)] = []) -> String {
        var members: [(String, String)] = [
            ("row", row.index.map(String.init) ?? "null"),
            ("path", string(row.path)),
            ("depth", String(row.depth)),
            ("type", string(row.type)),
            ("title", string(row.title)),
            ("position", String(row.position)),
            ("count", String(row.count)),
        ]
        if row.isExpandable { members.append(("expanded", row.isExpanded ? "true" : "false")) }
        if NodeKind(rawValue: row.type)?.holdsValue == true { members.append(("value", string(row.value))) }
        if row.state == "selected" || row.state == "unselected" {
            members.append(("selected", row.state == "selected" ? "true" : "false"))
        }
        if !row.subtitle.isEmpty { members.append(("subtitle", string(row.subtitle))) }
        if !row.icon.isEmpty { members.append(("icon", string(row.icon))) }
        if let bounds = row.bounds {
            members += [
                ("min", Value.format(bounds.min)), ("max", Value.format(bounds.max)),
                ("step", Value.format(bounds.step)),
            ]
        }
        if row.stale { members.append(("stale", "true")) }
        if !row.staleReason.isEmpty { members.append(("staleReason", string(row.staleReason))) }
        if !row.staleSince.isEmpty { members.append(("staleSince", string(row.staleSince))) }
        if !row.key.isEmpty { members.append(("key", string(row.key))) }
        return Self.members(members + extra)
    }

    /// An object from members whose values are already JSON.
    static func members(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
