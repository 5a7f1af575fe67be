import MenuCore

/// One problem in a config, printed as `FILE:LINE:COL: message` so that editors and
/// terminals can jump to it.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var mark: SourceMark
    public var message: String

    public init(file: String, mark: SourceMark, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    public var description: String { "\(file):\(mark.line):\(mark.column): \(message)" }
}

/// Every problem found in one config. Loading collects them all rather than stopping
/// at the first, so one edit-and-check cycle fixes as much as possible.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [ConfigError]
    public init(_ errors: [ConfigError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }

    /// The first `limit` errors, then how many more there are: what goes to clients,
    /// where a config with a hundred thousand errors must not make a message of
    /// megabytes. The log keeps them all.
    public func summary(atMost limit: Int) -> String {
        guard errors.count > limit else { return description }
        return (errors.prefix(limit).map(\.description) + ["… and \(errors.count - limit) more errors"])
            .joined(separator: "\n")
    }
}
