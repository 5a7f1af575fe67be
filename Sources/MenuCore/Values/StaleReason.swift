/// Why a node that reads its value from the system is stale: its source's last
/// error (a command that failed, a program missing, a line its rule refused), and
/// when. The daemon tells it; the model only keeps it for the node's row, and reads
/// no clock.
public struct StaleReason: Sendable, Hashable {
    /// One line: `wpctl: not found`, `'value-cmd' exited with status 1`.
    public var message: String
    /// When, as the protocol writes a time: ISO 8601 in UTC, to the second
    /// (`2026-11-28T15:47:25Z`).
    public var since: String

    public init(_ message: String, since: String) {
        self.message = message
        self.since = since
    }
}
