import MenuProtocol
import Testing

/// The rows of one group as the tests of `children-from` groups compare them:
/// what `tree` prints below it, whether or not the group is expanded.
extension TestDaemon {
    /// The rows below the group at `path`, as `path title [value]`.
    public func rows(below path: String) throws -> [String] {
        try request("tree \(path)").lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
            .filter { $0.path.hasPrefix(path + "/") }
            .map { "\($0.path) \($0.title)" + ($0.value.isEmpty ? "" : " [\($0.value)]") }
    }

    /// Waits until the rows below `path` are `expected`, or begin with `first`.
    public func waitForRows(below path: String, _ expected: [String]? = nil, first: String? = nil)
        async throws
    {
        try await waitUntil("the rows \(expected ?? [first ?? ""]); rows: \(try rows(below: path))") {
            let now = try rows(below: path)
            return expected.map { now == $0 } ?? (now.first == first)
        }
    }
}
