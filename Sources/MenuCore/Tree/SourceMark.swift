/// A place in a config file, 1-based like an editor shows it.
public struct SourceMark: Sendable, Hashable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
