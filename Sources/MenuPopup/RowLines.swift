import MenuProtocol

/// The rows of a `rows` reply, read as far as they are needed: every row's path at
/// once, to find rows by, and a row's whole record only when it is shown, so that a
/// group of 10,000 children costs the popup the records of the rows on screen.
public struct RowLines: Sendable {
    /// Each row's path, in the rows' order.
    public let paths: [String]
    private let lines: [String]

    /// The row records among `lines`; other lines are left out.
    public init(_ lines: [String]) {
        var paths: [String] = []
        var rows: [String] = []
        paths.reserveCapacity(lines.count)
        rows.reserveCapacity(lines.count)
        for line in lines {
            guard let path = RowRecord.path(ofLine: line) else { continue }
            paths.append(path)
            rows.append(line)
        }
        self.paths = paths
        self.lines = rows
    }

    public var count: Int { lines.count }

    /// The record of row `index`; nil when its line is no whole record.
    public func record(_ index: Int) -> RowRecord? {
        RowRecord(fields: ProtocolFields.fields(of: lines[index]))
    }
}
