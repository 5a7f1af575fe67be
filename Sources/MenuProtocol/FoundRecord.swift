import MenuCore

/// One answer of `find` as it travels on the wire: the `found` data line
/// (docs/protocol.md, "Found records"). Fields, tab-separated: `found`, path, type,
/// title, value, breadcrumbs (the ancestors' titles and the node's own, joined by
/// ` › `), the text matched (`title`, `path` or `breadcrumbs`), the matched positions in it
/// (0-based Unicode scalar offsets, comma-separated), and the score.
public struct FoundRecord: Sendable, Hashable {
    public static let tag = "found"
    /// What joins breadcrumbs.
    public static let separator = " › "

    public var path: String
    public var type: String
    public var title: String
    /// Empty when the node holds no value.
    public var value: String
    /// The ancestors' titles, the top-level menu's first, then the node's own,
    /// joined by ``separator``.
    public var breadcrumbs: String
    public var field: String
    public var positions: [Int]
    public var score: Int

    public init(_ found: FoundNode, in model: MenuModel) {
        path = model.path(of: found.node)
        type = model.tree.kind(found.node).rawValue
        title = model.title(of: found.node)
        value = model.value(of: found.node)?.description ?? ""
        breadcrumbs = (model.breadcrumbs(of: found.node) + [title]).joined(separator: Self.separator)
        field = found.field.rawValue
        positions = found.positions
        score = found.score
    }

    /// Reads a record back; nil when `fields` is not a found record.
    public init?(fields: [String]) {
        guard fields.count >= 9, fields[0] == Self.tag, let score = Int(fields[8]) else { return nil }
        path = fields[1]
        type = fields[2]
        title = fields[3]
        value = fields[4]
        breadcrumbs = fields[5]
        field = fields[6]
        positions = fields[7].split(separator: ",").compactMap { Int($0) }
        self.score = score
    }

    public var line: String { RecordWriter.line(write) }

    /// Writes the record as one line: the one place that says which field is where.
    public func write(to writer: inout RecordWriter) {
        writer.field(Self.tag)
        writer.field(path)
        writer.field(type)
        writer.field(title)
        writer.field(value)
        writer.field(breadcrumbs)
        writer.field(field)
        writer.field(positions.map(String.init).joined(separator: ","))
        writer.field(score)
        writer.endLine()
    }
}
