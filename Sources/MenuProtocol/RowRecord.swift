import MenuCore

/// A ``Row`` as it travels on the wire: the `row` data line of the protocol
/// (docs/protocol.md, "Row records"). Both ends use this one definition, so the field
/// order is written down exactly once.
///
/// Fields, tab-separated: `row`, index (`-` when hidden), depth, type, state,
/// position/count (1-based), path, value, title, subtitle, icon, and for range nodes
/// only: min, max, step; then `stale` and the access key when there are any, and for
/// a stale node whose source said why, the reason and since when. New
/// fields are only ever appended, so scripts that `cut -f` by number keep working.
public struct RowRecord: Sendable, Hashable {
    public static let tag = "row"

    public var index: Int?
    public var depth: Int
    public var type: String
    /// `expanded` / `collapsed` for expandable nodes, `selected` / `unselected` for a
    /// choice's options, `-` for everything else.
    public var state: String
    /// 1-based, because that is what a human or a status bar shows.
    public var position: Int
    public var count: Int
    public var path: String
    /// Empty when the node holds no value.
    public var value: String
    public var title: String
    public var subtitle: String
    public var icon: String
    /// Range nodes only (fields 12 to 14); other rows end after the icon.
    public var bounds: RangeBounds?
    /// Field 15, `stale`, only when the node's value is not known to be the system's
    /// (fields 12 to 14 are then empty for a node that is no range).
    public var stale: Bool
    /// Field 16, the node's access key (lowercase), only when it has one: fields 12
    /// to 15 are then empty where they have nothing.
    public var key: String
    /// Fields 17 and 18, only for a stale node whose source said why: its last error,
    /// and since when (ISO 8601, UTC). Empty otherwise.
    public var staleReason: String
    public var staleSince: String

    public init(_ row: Row) {
        index = row.index
        depth = row.depth
        type = row.kind.rawValue
        if let expanded = row.expanded {
            state = expanded ? "expanded" : "collapsed"
        } else if let selected = row.selected {
            state = selected ? "selected" : "unselected"
        } else {
            state = "-"
        }
        position = row.position + 1
        count = row.siblings
        path = row.path
        value = row.value ?? ""
        title = row.title
        subtitle = row.subtitle ?? ""
        icon = row.icon ?? ""
        bounds = row.bounds
        stale = row.stale
        key = row.key.map(String.init) ?? ""
        staleReason = row.stale ? row.staleReason?.message ?? "" : ""
        staleSince = row.stale ? row.staleReason?.since ?? "" : ""
    }

    /// The path of the row record `line`, read without the rest of the record; nil
    /// when the line is no row record.
    public static func path(ofLine line: String) -> String? {
        guard line.utf8.starts(with: "row\t".utf8) else { return nil }
        return ProtocolFields.field(6, of: line)
    }

    /// Reads a record back; nil when `fields` is not a row record.
    public init?(fields: [String]) {
        guard fields.count >= 11, fields[0] == Self.tag, let depth = Int(fields[2]) else { return nil }
        let pos = fields[5].split(separator: "/")
        guard pos.count == 2, let position = Int(pos[0]), let count = Int(pos[1]) else { return nil }
        index = Int(fields[1])
        self.depth = depth
        type = fields[3]
        state = fields[4]
        self.position = position
        self.count = count
        path = fields[6]
        value = fields[7]
        title = fields[8]
        subtitle = fields[9]
        icon = fields[10]
        if fields.count >= 14, let min = Double(fields[11]), let max = Double(fields[12]),
            let step = Double(fields[13])
        {
            bounds = RangeBounds(min: min, max: max, step: step)
        }
        stale = fields.count >= 15 && fields[14] == "stale"
        key = fields.count >= 16 ? fields[15] : ""
        staleReason = fields.count >= 17 ? fields[16] : ""
        staleSince = fields.count >= 18 ? fields[17] : ""
    }

    public var isExpandable: Bool { state == "expanded" || state == "collapsed" }
    public var isExpanded: Bool { state == "expanded" }

    public var fields: [String] { ProtocolFields.fields(of: line) }

    public var line: String { RecordWriter.line(write) }

    /// Writes the record as one line: the one place that says which field is where.
    public func write(to writer: inout RecordWriter) {
        writer.field(Self.tag)
        if let index { writer.field(index) } else { writer.field("-") }
        writeAfterIndex(to: &writer)
    }

    /// The fields after the index, and the line's end.
    func writeAfterIndex(to writer: inout RecordWriter) {
        writer.field(depth)
        writer.field(type)
        writer.field(state)
        writer.field(position, UInt8(ascii: "/"), count)
        writer.field(path)
        writer.field(value)
        writer.field(title)
        writer.field(subtitle)
        writer.field(icon)
        if let bounds {
            writer.field(bounds.min)
            writer.field(bounds.max)
            writer.field(bounds.step)
        } else if stale || !key.isEmpty {
            writer.field("")
            writer.field("")
            writer.field("")
        }
        if stale {
            writer.field(literal: "stale")
        } else if !key.isEmpty {
            writer.field("")
        }
        let reason = !staleReason.isEmpty || !staleSince.isEmpty
        if !key.isEmpty || reason { writer.field(key) }
        if reason {
            writer.field(staleReason)
            writer.field(staleSince)
        }
        writer.endLine()
    }
}
