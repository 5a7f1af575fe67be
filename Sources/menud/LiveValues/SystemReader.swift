import MenuCore

/// The system services' reader: the nodes that show a system service's value
/// (``SystemValue``), read from ``SystemServices``, which follows the services'
/// signals. Nothing is read on demand: a service tells each change itself.
final class SystemReader: ValueReader {
    var onLine: ((_ n: Int, _ line: Result<String, SourceFailure>) -> Void)?

    private let system: SystemServices
    private var nodes: [Int: SystemValue] = [:]

    init(system: SystemServices) {
        self.system = system
    }

    func follow(_ wanted: [Int: ValueSource], path: (Int) -> String) {
        nodes = wanted.compactMapValues(\.system)
        system.follow(values: Set(nodes.values))
    }

    func read(_ n: Int) -> Bool { false }

    /// What node `n`'s service says now, nil until it has answered.
    func current(_ n: Int) -> Result<String, SourceFailure>? {
        nodes[n].flatMap { system.reading(of: $0) }
    }

    /// A service's readings changed: each of its nodes is told what it says now
    /// (the model passes over a value that is the one shown).
    func readingsChanged() {
        for (n, value) in nodes.sorted(by: { $0.key < $1.key }) {
            if let line = system.reading(of: value) { onLine?(n, line) }
        }
    }

    /// Hands a user's change of node `n` to its service.
    func apply(_ new: Value, to n: Int) {
        guard let value = nodes[n] else { return }
        system.apply(new, to: value)
    }

    /// A service whose nodes are all gone is no longer followed for them.
    func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        let count = nodes.count
        nodes = nodes.renumbered(number)
        if nodes.count != count { system.follow(values: Set(nodes.values)) }
    }

    func close() {
        nodes = [:]
        system.follow(values: [])
    }
}
