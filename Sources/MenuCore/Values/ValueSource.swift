/// Where a value node reads its value from the system, besides from its users: the
/// menu shows the volume the sound server has, not the last one set through menud.
/// The daemon runs the commands; the model only takes what they print
/// (``MenuModel/read(_:into:)``).
public struct ValueSource: Sendable, Hashable {
    /// `value-cmd`: a command whose last line of output is the value.
    public var command: String?
    /// `interval`: how often ``command`` runs besides its fixed occasions (start,
    /// the node's group opening, after its own `on-change`).
    public var interval: Duration?
    /// `value-listen`: a command that keeps running and prints each new value as a line.
    public var listen: String?
    /// A system service the daemon follows itself, for the value nodes of a
    /// `children-from` group of that service.
    public var system: SystemValue?

    public init(
        command: String? = nil, interval: Duration? = nil, listen: String? = nil, system: SystemValue? = nil
    ) {
        self.command = command
        self.interval = interval
        self.listen = listen
        self.system = system
    }
}
