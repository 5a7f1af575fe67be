import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One `value-listen` command: it keeps running, and each line it prints is the
/// node's new value. When it ends it is started again after a back-off that doubles
/// from 1 s to 60 s with each restart, and goes back to 1 s only once a run has
/// lasted 60 s: a command that prints a line and ends is restarted ever more slowly,
/// not every second. The log says so at each step of the back-off, unless a program
/// it runs is missing: that is logged once, by name (``MissingPrograms``).
///
/// Costs no wake-up between its lines: the loop reads its pipe when it writes. Of
/// the lines one read brings, only the last is applied: the ones before it were
/// the node's value for no time at all, and a command printing as fast as it can
/// would otherwise have each of thousands of lines applied and sent to every
/// subscriber.
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
    /// Resumes reading after a read that filled the buffer (``floodPause``).
    private var pause: LoopTimer?
    /// The last line of the read being taken.
    private var lastLine: [UInt8] = []
    private static let tooLong = SourceFailure("a line longer than 64 KiB; dropped it")
    /// After the child exited, how long its output may stay open (held by something
    /// it started) before it is abandoned.
    private var drain: LoopTimer?
    /// The next restart's delay; nil until the command has ended once without a line.
    private var backOff: Duration?
    /// When the running command started: a run as long as the longest back-off
    /// ends the back-off.
    private var startedAt: ContinuousClock.Instant?
    private var isStopped = false

    /// The longest line taken; the rest of a longer one is dropped, so that a
    /// command printing without a newline cannot grow the daemon's memory.
    static let lineLimit = 64 * 1024
    static let firstBackOff = Duration.seconds(1)
    static let longestBackOff = Duration.seconds(60)
    /// How long a command that fills the read buffer waits before the next read:
    /// at most a hundred reads a second, each applying its last line.
    static let floodPause = Duration.milliseconds(10)
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
        startedAt = ContinuousClock.now
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
        pause?.close()
        pause = nil
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
        // Only the last line of the read is looked at (the framer skips to it), kept
        // as bytes in storage reused from read to read and made a string once: a
        // read of 64 KiB of short lines costs two searches for a newline, not twenty
        // thousand lines. A line over the limit just before it is still said.
        var any = false
        var lastTooLong = false
        var refused: SourceFailure?
        framer.feedLast(bytes) { line in
            if lastTooLong { refused = Self.tooLong }
            any = true
            switch line {
            case .bytes(let bytes):
                lastLine.removeAll(keepingCapacity: true)
                lastLine.append(contentsOf: bytes)
                lastTooLong = false
            case .tooLong:
                lastTooLong = true
            }
        }
        if any {
            let last: Result<String, SourceFailure> =
                lastTooLong
                ? .failure(Self.tooLong)
                : String(validating: lastLine, as: UTF8.self).map { .success($0) }
                    ?? .failure(SourceFailure("the line is not UTF-8"))
            if let refused, case .success = last { onLine?(.failure(refused)) }
            onLine?(last)
        }
        // A read that filled the loop's buffer: the command prints faster than anyone
        // could see. Its output waits in the pipe for a moment, so that the loop
        // serves its clients between the reads; the value shown is the last line of
        // each read all the same.
        if bytes.count >= EventLoop.readBufferSize, let process {
            process.pauseOutput()
            let timer = pause ?? LoopTimer(loop: loop)
            pause = timer
            timer.onFire = { [weak self] in self?.process?.resumeOutput() }
            timer.start(after: Self.floodPause)
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
        if let startedAt, ContinuousClock.now - startedAt >= Self.longestBackOff { backOff = nil }
        startedAt = nil
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
