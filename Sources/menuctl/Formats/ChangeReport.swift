import MenuProtocol

/// What a command that changes the menu answered, told as the nodes it changed. The
/// reply's records only name paths and new states; the titles come from the whole
/// `tree`, asked for on the same connection just after.
///
/// The text is a line per changed node (``NodeLine``): `▾ Power (4 rows)` after a
/// toggle, `Volume: 60%` after a set. When nothing changed it is the line of the node
/// the command named, so `expand` on an open group still says what is there.
struct ChangeReport {
    /// The reply's data lines, split into fields.
    var records: [[String]]
    var tree: TreeRows
    /// The path the command named, if any.
    var subject: String?

    private func row(_ path: String) -> RowRecord? { tree.row(path) }

    private func nodeLine(_ path: String) -> String {
        row(path).map { NodeLine.text($0, in: tree) } ?? InertText.oneLine(path)
    }

    /// The paths whose nodes changed, each once, in the reply's order.
    var changedPaths: [String] {
        var seen = Set<String>()
        return records.compactMap { fields -> String? in
            switch ChangeRecord(fields: fields) {
            case .expansion(let path, _), .value(let path, _, _):
                return seen.insert(path).inserted ? path : nil
            default: return nil
            }
        }
    }

    /// The nodes the text shows: the changed ones, else the one the command named.
    var shownPaths: [String] {
        let changed = changedPaths
        if !changed.isEmpty { return changed }
        if records.contains(where: { $0.first == "focus" || $0.first == "ran" || $0.first == "activated" }) {
            return []
        }
        return subject.map { [$0] } ?? []
    }

    var textLines: [String] {
        var lines: [String] = []
        var named = subject
        for fields in records {
            switch fields.first {
            case "focus" where fields.count >= 3:
                named = fields[2]
                lines.append(Self.focusLine(fields[2], row: row(fields[2]), in: tree))
            case "activated" where fields.count >= 3 && fields[2] == "none":
                lines.append("\(title(fields[1])): nothing to run")
            case "ran" where fields.count >= 3:
                let what = named.map { title(ranNode($0)) } ?? "a command"
                lines.append("Started \(what) (pid \(fields[1])): \(InertText.oneLine(fields[2]))")
            case "config" where fields.count >= 3:
                lines.append("Config \(InertText.oneLine(fields[1])): \(InertText.oneLine(fields[2]))")
            case "row":
                if let record = RowRecord(fields: fields) { lines.append(RowTree.line(record)) }
            case "splice", "expansion", "value", "activated":
                break
            default:
                lines.append(InertText.oneLine(fields.joined(separator: " ")))
            }
        }
        let focused = Set(records.filter { $0.first == "focus" && $0.count >= 3 }.map { $0[2] })
        var shown = shownPaths.filter { !focused.contains($0) }
        // A reload may change every node of a big menu: name a few.
        var more = ""
        if records.contains(where: { $0.first == "config" }), shown.count > Self.reloadNodesNamed {
            more = "… and \(shown.count - Self.reloadNodesNamed) more changed nodes"
            shown = Array(shown.prefix(Self.reloadNodesNamed))
        }
        return lines + shown.map(nodeLine) + (more.isEmpty ? [] : [more])
    }

    /// The node whose command a `ran` record reports, for `path` the node activated:
    /// itself, or for a confirmation's yes the item it confirmed. That is an item
    /// whose activation closed its parent (the question); a plain item's never does.
    private func ranNode(_ path: String) -> String {
        guard row(path)?.type == "item", let slash = path.lastIndex(of: "/") else { return path }
        let parent = String(path[..<slash])
        let closed = records.contains {
            ChangeRecord(fields: $0) == .expansion(path: parent, expanded: false)
        }
        return closed ? parent : path
    }

    /// How many changed nodes the text of a reload names.
    static let reloadNodesNamed = 20

    private func title(_ path: String) -> String {
        row(path).map { InertText.oneLine($0.title) } ?? InertText.oneLine(path)
    }

    /// `Focus on settings/wifi: Wi-Fi: on`, as `nav`, `focus` and `focused` print it.
    static func focusLine(_ path: String, row: RowRecord?, in tree: TreeRows) -> String {
        let node = row.map { ": " + NodeLine.text($0, in: tree) } ?? ""
        return "Focus on \(InertText.oneLine(path))\(node)"
    }

    /// One object: `nodes` (the rows the text shows), `splices`, `expansions` and
    /// `values` always; `focus`, `activated`, `ran`, `config`, `rows` and `records`
    /// when the reply has them.
    var json: String {
        var splices: [String] = []
        var expansions: [String] = []
        var values: [String] = []
        var rows: [String] = []
        var others: [String] = []
        var single: [(String, String)] = []
        for fields in records {
            switch ChangeRecord(fields: fields) {
            case .splice(let s):
                splices.append(
                    RowJSON.members([
                        ("start", String(s.start)), ("removed", String(s.removed)),
                        ("inserted", String(s.inserted)),
                    ]))
            case .expansion(let path, let expanded):
                expansions.append(
                    RowJSON.members([
                        ("path", RowJSON.string(path)), ("expanded", expanded ? "true" : "false"),
                    ]))
            case .value(let path, let value, let stale):
                var members = [("path", RowJSON.string(path)), ("value", RowJSON.string(value))]
                if stale { members.append(("stale", "true")) }
                values.append(RowJSON.members(members))
            case nil:
                switch fields.first {
                case "focus" where fields.count >= 3:
                    single.append(
                        (
                            "focus",
                            RowJSON.members([
                                ("menu", RowJSON.string(fields[1])), ("path", RowJSON.string(fields[2])),
                            ])
                        ))
                case "activated" where fields.count >= 3:
                    single.append(
                        (
                            "activated",
                            RowJSON.members([
                                ("path", RowJSON.string(fields[1])), ("what", RowJSON.string(fields[2])),
                            ])
                        ))
                case "ran" where fields.count >= 3:
                    single.append(
                        (
                            "ran",
                            RowJSON.members([
                                ("pid", Int(fields[1]).map(String.init) ?? "null"),
                                ("command", RowJSON.string(fields[2])),
                            ])
                        ))
                case "config" where fields.count >= 3:
                    single.append(
                        (
                            "config",
                            RowJSON.members([
                                ("outcome", RowJSON.string(fields[1])), ("file", RowJSON.string(fields[2])),
                            ])
                        ))
                case "row":
                    if let record = RowRecord(fields: fields) { rows.append(RowJSON.object(record)) }
                default:
                    others.append("[" + fields.map(RowJSON.string).joined(separator: ",") + "]")
                }
            }
        }
        let focused = records.filter { $0.first == "focus" && $0.count >= 3 }.map { $0[2] }
        let nodes = (focused + shownPaths.filter { !focused.contains($0) }).compactMap { path in
            row(path).map { NodeLine.json($0, in: tree) }
        }
        var members: [(String, String)] = [
            ("nodes", "[" + nodes.joined(separator: ",") + "]"),
            ("splices", "[" + splices.joined(separator: ",") + "]"),
            ("expansions", "[" + expansions.joined(separator: ",") + "]"),
            ("values", "[" + values.joined(separator: ",") + "]"),
        ]
        members += single
        if !rows.isEmpty { members.append(("rows", "[" + rows.joined(separator: ",") + "]")) }
        if !others.isEmpty { members.append(("records", "[" + others.joined(separator: ",") + "]")) }
        return RowJSON.members(members)
    }
}
