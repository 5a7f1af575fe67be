import MenuCore

/// Each node's row record after its index, kept until the node's row changes: a
/// `get` or `row` then copies bytes instead of building a `Row`, its strings and its
/// record again.
///
/// Kept for one model, by node number, with the ``MenuModel/rowVersion(of:)`` it was
/// rendered at; all of it is dropped when the model renumbers its nodes
/// (``MenuModel/numbering``). Whoever replaces the model (a reload) starts a new
/// cache. A stale entry keeps its storage, so rendering it again allocates nothing.
/// The row's visible index is not kept: it moves whenever a group above opens or
/// closes.
///
/// Arrays by node number, not a dictionary: a `get` then costs no hashing. A node
/// never read holds an empty array, which allocates nothing.
public struct RowRecordCache {
    private var entries: [[UInt8]] = []
    /// The row version each entry was rendered at, plus one; 0 for none.
    private var versions: [UInt32] = []
    private var numbering = 0

    public init() {}

    /// Writes node `n`'s record, shown at visible row `index`, from the kept bytes;
    /// what follows the index is rendered again only after the node's row changed.
    public mutating func write(node n: Int, index: Int?, in model: MenuModel, to writer: inout RecordWriter) {
        // `tag`, as a literal: every `get` and `row` reply begins here.
        writer.field(literal: "row")
        if let index { writer.field(index) } else { writer.field(literal: "-") }
        if numbering != model.numbering {
            entries = []
            versions = []
            numbering = model.numbering
        }
        let version = model.rowVersion(of: n) &+ 1
        if n < versions.count, versions[n] == version {
            entries[n].withUnsafeBufferPointer { writer.append(line: $0) }
            return
        }
        if n >= entries.count {
            let more = n + 1 - entries.count
            entries.append(contentsOf: repeatElement([], count: more))
            versions.append(contentsOf: repeatElement(0, count: more))
        }
        var tail = RecordWriter()
        entries[n].removeAll(keepingCapacity: true)
        tail.exchangeBytes(with: &entries[n])
        RowRecord(model.row(of: n)).writeAfterIndex(to: &tail)
        tail.exchangeBytes(with: &entries[n])
        versions[n] = version
        entries[n].withUnsafeBufferPointer { writer.append(line: $0) }
    }
}
