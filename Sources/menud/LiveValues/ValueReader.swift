import MenuCore

/// The kinds of source a value node reads from the system, each read by one
/// ``ValueReader``: adding a kind is a case here and a reader of its own.
enum ValueSourceKind: CaseIterable {
    /// `value-cmd`, run at fixed occasions and on its `interval`.
    case command
    /// `value-listen`, kept running.
    case listen
    /// A system service followed over D-Bus.
    case system

    /// What of `source` this kind reads, as the reader compares it: nil when the
    /// source has none of it.
    func part(of source: ValueSource) -> ValueSource? {
        switch self {
        case .command: source.command.map { ValueSource(command: $0, interval: source.interval) }
        case .listen: source.listen.map { ValueSource(listen: $0) }
        case .system: source.system.map { ValueSource(system: $0) }
        }
    }
}

/// Reads the sources of one ``ValueSourceKind`` for every node that has one, by
/// node, and hands each line on (``onLine``) to ``LiveValues``.
protocol ValueReader: AnyObject {
    /// A line read for node `n`, or why none could be.
    var onLine: ((_ n: Int, _ line: Result<String, SourceFailure>) -> Void)? { get set }
    /// Follows `wanted`, this kind's part of each node's source: what is gone or
    /// changed stops, what is new starts, told its node's path by `path`.
    func follow(_ wanted: [Int: ValueSource], path: (Int) -> String)
    /// Reads node `n` now if this kind reads on demand. Returns whether a read asked
    /// for before has not ended: reads are asked for faster than they run.
    @discardableResult func read(_ n: Int) -> Bool
    /// Its nodes, after the model's moved.
    func renumber(_ number: Renumbering)
    /// Stops everything, for the daemon's stop.
    func close()
}
