import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One `value-listen` command: it keeps running, and each line it prints is the
/// node's new value. When it ends it is started again after a back-off that doubles
/// from 1 s to 60 s, and goes back to 1 s once it has printed a line. The log says
/// so at each step of the back-off, unless a program it runs is missing: that is
/// logged once, by name (``MissingPrograms``).
///
/// Costs no wake-up between its lines: the loop reads its pipe when it writes.
final class ValueListener {
    let path: String
    let command: String
    /// Each line, or why one could not be read.
    var onLine: ((Result<String, SourceFailure>) -> Void)?

    private let processes: ProcessTable
    private let missing: MissingPrograms
    private let loop: EventLoop
    private let logger: Logger
    private var process: ChildProcess?
    private var framer = LineFramer(maximumLineLength: ValueListener.lineLimit)
    private var restart: LoopTimer?
    /// After the child exited, how long its output may stay open (held by something
    /// it started) before it is abandoned.
    private var drain: LoopTimer?
    /// The next restart's delay; nil until the command has ended once without a line.
    private var backOff: Duration?
    private var printedSinceStart = false
    private var isStopped = false

    /// The longest line taken; the rest of a longer one is dropped, so that a
    /// command printing without a newline cannot grow the daemon's memory.
    static let lineLimit = 64 * 1024
    static let firstBackOff = Duration.seconds(1)
    static let longestBackOff = Duration.seconds(60)
    /// How long a listener's output may outlive it.
    static let drainTime = Duration.seconds(1)

    init(
        path: String, command: String, processes: ProcessTable, missing: MissingPrograms, loop: EventLoop,
        logger: Logger
    ) {
        self.path = path
        self.command = command
        self.processes = processes
        self.missing = missing
        self.loop = loop
        self.logger = logger
    }

    func start() {
        guard !isStopped, process == nil else { return }
        framer = LineFramer(maximumLineLength: Self.lineLimit)
        printedSinceStart = false
        do throws(ProtocolError) {
            let process = try processes.launch(
                command, environment: ["MENU_PATH": path], standardOutput: .stream,
                standardError: .captureTail(limit: MissingPrograms.errorOutputLimit), endsWithDaemon: true,
                ended: { [weak self] result in self?.ended(result) })
            process.onOutput = { [weak self] bytes in self?.received(bytes) }
            process.onExited = { [weak self] _ in self?.exited() }
            self.process = process
        } catch {
            logger.error("value-listen \(path): \(error.message)")
            scheduleRestart(because: error.message, quiet: true)
        }
    }

    /// Ends the command with its process group, for good. Its output is no longer
    /// read, but the process stays watched until it has exited: the loop reaps only
    /// the processes it watches, and one closed while running would stay a zombie for
    /// as long as the daemon runs (and its entry in the process table with it).
    func stop() {
        isStopped = true
        restart?.close()
        restart = nil
        drain?.close()
        drain = nil
        guard let process else { return }
        self.process = nil
        process.onOutput = nil
        process.onExited = nil
        process.killGroup(SIGTERM)
        process.abandonOutput()
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        framer.feed(bytes) { line in
            switch line {
            case .bytes(let bytes):
                printedSinceStart = true
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    onLine?(.failure(SourceFailure("the line is not UTF-8")))
                    return
                }
                onLine?(.success(text))
            case .tooLong:
                onLine?(.failure(SourceFailure("a line longer than 64 KiB; dropped it")))
            }
        }
    }

    /// The child is gone; what it printed last may still be in the pipe, and will
    /// come before the end of its output, unless something it left behind holds the
    /// pipe open: then the output is given up after ``drainTime``.
    private func exited() {
        process?.killGroup(SIGTERM)
        let timer = LoopTimer(loop: loop)
        timer.onFire = { [weak self] in self?.process?.abandonOutput() }
        timer.start(after: Self.drainTime)
        drain = timer
    }

    private func ended(_ result: ChildProcess.Result) {
        drain?.close()
        drain = nil
        process = nil
        guard !isStopped else { return }
        framer.finish { line in
            if case .bytes(let bytes) = line, let text = String(validating: bytes, as: UTF8.self) {
                printedSinceStart = true
                onLine?(.success(text))
            }
        }
        // A missing program is logged once, and by name, however often it ends.
        let names = missing.found(in: result.standardError, user: "value-listen \(path)")
        // A listener that ends with success ended: its status is no news.
        let how = result.exit.succeeded ? "ended" : result.exit.description
        scheduleRestart(because: "'\(command)' \(how)", quiet: !names.isEmpty)
    }

    /// `quiet`: the log has said why already.
    private func scheduleRestart(because reason: String, quiet: Bool = false) {
        if printedSinceStart { backOff = nil }
        let previous = backOff
        let delay = previous.map { min($0 * 2, Self.longestBackOff) } ?? Self.firstBackOff
        backOff = delay
        // Once per step of the back-off: a command that keeps failing at the longest
        // delay is not logged every minute.
        if delay != previous, !quiet {
            logger.warning(
                "value-listen \(path): \(reason); starting it again in \(Value.format(delay.seconds)) s")
        }
        let timer = restart ?? LoopTimer(loop: loop)
        timer.onFire = { [weak self] in self?.start() }
        timer.start(after: delay)
        restart = timer
    }
}
