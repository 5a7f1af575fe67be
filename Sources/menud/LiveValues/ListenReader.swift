import Logging
import MenuCore
import MenuLoop

/// The `value-listen` reader: one ``ValueListener`` per node, kept running while
/// the node has the same command.
final class ListenReader: ValueReader {
    var onLine: ((_ n: Int, _ line: Result<String, SourceFailure>) -> Void)?

    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let loop: EventLoop
    private let logger: Logger
    private let refs: NodeRefs
    private var listeners: [Int: ValueListener] = [:]

    init(processes: ProcessTable, missing: MissingPrograms, refs: NodeRefs, loop: EventLoop, logger: Logger) {
        self.refs = refs
        self.processes = processes
        self.missing = missing
        self.loop = loop
        self.logger = logger
    }

    /// A listener whose command is unchanged keeps running, one whose node is gone or
    /// changed is stopped, and new ones start.
    func follow(_ wanted: [Int: ValueSource], path: (Int) -> String) {
        for (n, listener) in listeners where wanted[n]?.listen != listener.command {
            listener.stop()
            listeners[n] = nil
        }
        for (n, source) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let command = source.listen, listeners[n] == nil else { continue }
            let listener = ValueListener(
                path: path(n), command: command, processes: processes, missing: missing, loop: loop,
                logger: logger)
            let node = refs.ref(n)
            listener.onLine = { [weak self] line in
                if let n = node.node { self?.onLine?(n, line) }
            }
            listeners[n] = listener
            listener.start()
        }
    }

    /// A listener prints when the value changes: there is nothing to read on demand.
    func read(_ n: Int) -> Bool { false }

    /// A listener whose node is gone stops.
    func renumber(_ number: Renumbering) {
        guard !number.isIdentity else { return }
        for (n, listener) in listeners where number(n) == nil { listener.stop() }
        listeners = listeners.renumbered(number)
    }

    func close() {
        for listener in listeners.values { listener.stop() }
        listeners = [:]
    }
}
