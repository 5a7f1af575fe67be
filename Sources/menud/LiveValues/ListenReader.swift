import Logging
import MenuCore
import MenuLoop

/// The `value-listen` reader: one ``ValueListener`` per node, kept running while
/// the node has the same command.
final class ListenReader: ValueReader {
    var onLine: ((_ path: String, _ line: Result<String, SourceFailure>) -> Void)?

    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let loop: EventLoop
    private let logger: Logger
    private var listeners: [String: ValueListener] = [:]

    init(processes: ProcessTable, missing: MissingPrograms, loop: EventLoop, logger: Logger) {
        self.processes = processes
        self.missing = missing
        self.loop = loop
        self.logger = logger
    }

    /// A listener whose command is unchanged keeps running, one whose node is gone or
    /// changed is stopped, and new ones start.
    func follow(_ wanted: [String: ValueSource]) {
        for (path, listener) in listeners where wanted[path]?.listen != listener.command {
            listener.stop()
            listeners[path] = nil
        }
        for (path, source) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let command = source.listen, listeners[path] == nil else { continue }
            let listener = ValueListener(
                path: path, command: command, processes: processes, missing: missing, loop: loop,
                logger: logger)
            listener.onLine = { [weak self] line in self?.onLine?(path, line) }
            listeners[path] = listener
            listener.start()
        }
    }

    /// A listener prints when the value changes: there is nothing to read on demand.
    func read(_ path: String) -> Bool { false }

    func close() {
        for listener in listeners.values { listener.stop() }
        listeners = [:]
    }
}
