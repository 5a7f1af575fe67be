import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started on the loop (`posix_spawn`, see `menud_spawn` in CUV)
/// and reaped by it, through a descriptor that tells its exit (`pidfd_open`, Linux
/// 5.3): menud's `exec`, `on-change` and `children-cmd`.
///
/// Detached (the default), the child leads a session and process group of its own
/// (`setsid`): it outlives the daemon, gets none of its terminal's signals, and
/// ``killGroup(_:)`` reaches whatever it started too. Its standard input is
/// `/dev/null`; it gets default signal dispositions and an empty signal mask, and
/// none of the daemon's descriptors (libuv and this open them all close-on-exec).
///
/// Captured output is bounded: bytes past the limit are read and dropped, so the
/// child is never blocked on a full pipe, and the result says it was truncated.
/// ``onExit`` comes once the child has exited and every captured stream has ended,
/// so the output is complete; a timeout is the caller's ``LoopTimer`` and
/// ``killGroup(_:)``.
public final class ChildProcess: LoopHandle {
    public enum Program: Sendable {
        /// `/bin/sh -c command`.
        case shell(String)
        /// A program looked up in `PATH`, and its arguments: the first is its name.
        case arguments([String])
    }

    /// What becomes of one of the child's output streams.
    public enum Output: Sendable {
        case discard
        /// The daemon's own stream, for its log.
        case inherit
        /// Read into memory, at most `limit` bytes.
        case capture(limit: Int)
        /// Read into memory, keeping the last `limit` bytes: for what a command says
        /// on its way to failing, whose end says why. Passing the limit is no failure,
        /// so ``ChildProcess/onOutputTruncated`` is not called for it.
        case captureTail(limit: Int)
        /// Handed to ``ChildProcess/onOutput`` read by read, keeping nothing: for a
        /// command that keeps running and reports as it goes.
        case stream
    }

    public enum Exit: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case killed(signal: Int32)

        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "killed by signal \(signal)"
            }
        }
    }

    public struct Captured: Sendable, Equatable {
        public var bytes: [UInt8] = []
        /// The stream had more than the limit; only the first bytes are kept (the
        /// last, for ``Output/captureTail(limit:)``).
        public var truncated = false

        public init(bytes: [UInt8] = [], truncated: Bool = false) {
            self.bytes = bytes
            self.truncated = truncated
        }
    }

    public struct Result: Sendable, Equatable {
        public var exit: Exit
        public var standardOutput: Captured
        public var standardError: Captured
    }

    /// The child's process id, which is also its process group's when detached.
    public private(set) var pid: Int32 = 0
    public let detached: Bool
    /// Called once when the child has exited and its captured output ended; the
    /// handle is closed right after.
    public var onExit: ((Result) -> Void)?
    /// Called once, as soon as a captured stream passes its limit: a caller that
    /// treats that as a failure need not wait for the child to end.
    public var onOutputTruncated: (() -> Void)?

    /// The bytes of each read of a ``Output/stream`` output, valid only during the call.
    public var onOutput: ((UnsafeRawBufferPointer) -> Void)?

    /// Called as soon as the child has exited, before ``onExit``, which waits for its
    /// captured output to end as well: something it started may hold that open.
    public var onExited: ((Exit) -> Void)?

    private var handle: UnsafeMutablePointer<uv_poll_t>!
    /// The descriptor ``handle`` polls, closed with it.
    private var pidDescriptor: Int32 = -1
    private var exit: Exit?
    private var outputs: [OutputCapture?] = [nil, nil]
    private var finished = false

    /// Starts `program`. `environment` is added to the daemon's own: values reach a
    /// command this way, never pasted into its text.
    public init(
        loop: EventLoop, _ program: Program, environment: [String: String] = [:], detached: Bool = true,
        standardOutput: Output = .discard, standardError: Output = .discard
    ) throws(UVError) {
        self.detached = detached
        let arguments: [String]
        switch program {
        case .shell(let command): arguments = ["/bin/sh", "-c", command]
        case .arguments(let list): arguments = list
        }
        guard !arguments.isEmpty else { throw UVError(UV_EINVAL.rawValue) }

        // The child's ends of its output pipes, closed here once it has them.
        var childEnds: [Int32] = [-1, -1]
        defer { for end in childEnds where end >= 0 { Glibc.close(end) } }
        for (fd, output) in [standardOutput, standardError].enumerated() {
            switch output {
            case .discard: break
            case .inherit: childEnds[fd] = -2
            case .capture, .captureTail, .stream:
                var ends: [Int32] = [-1, -1]
                guard menud_output_pipe(&ends) == 0 else {
                    for output in outputs { output?.pipe.close() }
                    throw UVError(-errno)
                }
                childEnds[fd] = ends[1]
                do throws(UVError) {
                    outputs[fd] = OutputCapture(
                        output, pipe: try PipeReader(descriptor: ends[0], on: loop.raw))
                } catch {
                    for output in outputs { output?.pipe.close() }
                    throw error
                }
            }
        }

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if !environment.isEmpty {
            var entry = environ
            while let pointer = entry.pointee {
                let name = String(cString: pointer).prefix { $0 != "=" }
                if environment[String(name)] == nil { envp.append(strdup(pointer)) }
                entry += 1
            }
            for (name, value) in environment { envp.append(strdup("\(name)=\(value)")) }
            envp.append(nil)
        }
        defer { for pointer in envp { free(pointer) } }

        var child: pid_t = 0
        let rc = argv.withUnsafeBufferPointer { argv in
            envp.withUnsafeBufferPointer { envp in
                menud_spawn(
                    &child, argv[0], argv.baseAddress, envp.isEmpty ? nil : envp.baseAddress,
                    childEnds[0], childEnds[1], detached ? 1 : 0)
            }
        }
        guard rc == 0 else {
            for output in outputs { output?.pipe.close() }
            throw UVError(-rc)
        }
        pid = child
        do throws(UVError) {
            handle = try Self.exitWatch(of: child, loop: loop, owner: self)
        } catch {
            // Not watched, it could not be reaped: it is ended here.
            _ = Glibc.kill(child, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
            for output in outputs { output?.pipe.close() }
            throw error
        }
        for (index, output) in outputs.enumerated() {
            guard let output else { continue }
            output.pipe.onEndOfInput = { [weak self] in self?.outputEnded(index) }
            output.pipe.onError = { [weak self] _ in self?.outputEnded(index) }
            output.onTruncated = { [weak self] in self?.outputTruncated() }
            output.onStream = { [weak self] bytes in self?.onOutput?(bytes) }
            output.pipe.startReading()
        }
    }

    /// A poll handle on a descriptor of the child's (`pidfd_open`) that becomes
    /// readable when it exits; the child is reaped then (``reap()``).
    private static func exitWatch(
        of child: pid_t, loop: EventLoop, owner process: ChildProcess
    ) throws(UVError) -> UnsafeMutablePointer<uv_poll_t> {
        let descriptor = menud_pidfd_open(child)
        guard descriptor >= 0 else { throw UVError(-errno) }
        process.pidDescriptor = descriptor
        let handle: UnsafeMutablePointer<uv_poll_t>
        do throws(UVError) {
            handle = try process.allocateHandle(uv_poll_t.self) { uv_poll_init(loop.raw, $0, descriptor) }
        } catch {
            Glibc.close(descriptor)
            process.pidDescriptor = -1
            throw error
        }
        let rc = uv_poll_start(handle, Int32(UV_READABLE.rawValue)) { handle, _, _ in
            owner(of: handle, as: ChildProcess.self).reap()
        }
        guard rc == 0 else {
            closeHandle(handle)
            throw UVError(rc)
        }
        return handle
    }

    /// The child exited: its status, taken from the kernel, which frees its entry.
    private func reap() {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else {
            // Not yet, or reaped by somebody else (ECHILD): in that case no status
            // is left to read, and the child is gone all the same.
            if reaped < 0 { stopWatchingExit(.killed(signal: 0)) }
            return
        }
        // The wait(2) status: the low 7 bits are the signal that ended the child,
        // or 0 when it exited, with its status in the next 8.
        let signal = status & 0x7F
        stopWatchingExit(signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal))
    }

    private func stopWatchingExit(_ exit: Exit) {
        uv_poll_stop(handle)
        exited(exit)
    }

    /// Stops handing its streamed output to ``onOutput`` until ``resumeOutput()``:
    /// for a reader that takes what a child writes no faster than it can use it.
    public func pauseOutput() {
        for output in outputs where output?.ended == false { output?.pipe.stopReading() }
    }

    public func resumeOutput() {
        for output in outputs where output?.ended == false { output?.pipe.startReading() }
    }

    /// Sends `signal` to the child's whole process group (to the child alone if it is
    /// not detached), until ``onExit`` has been called: after the child exited, the
    /// group may still hold what it started, keeping its output open.
    public func killGroup(_ signal: Int32) {
        guard !finished else { return }
        _ = Glibc.kill(detached ? -pid : pid, signal)
    }

    /// Stops reading its captured output, closing this side's pipes, and counts it as
    /// ended: for a child being killed, whose output nobody will read, and which may
    /// have started something outside its process group (`setsid`) that holds the
    /// pipes open for as long as it likes. ``onExit`` still comes once it has exited.
    public func abandonOutput() {
        guard !finished else { return }
        for index in outputs.indices where outputs[index] != nil {
            outputs[index]?.ended = true
            outputs[index]?.pipe.close()
        }
        finishIfDone()
    }

    /// Stops reading its output and watching it: ``onExit`` will not be called. The
    /// child is not signalled.
    public func close() {
        guard !finished else { return }
        finished = true
        for output in outputs { output?.pipe.close() }
        closeHandle(handle)
    }

    private func exited(_ exit: Exit) {
        self.exit = exit
        onExited?(exit)
        finishIfDone()
    }

    private func outputEnded(_ index: Int) {
        outputs[index]?.ended = true
        outputs[index]?.pipe.close()
        finishIfDone()
    }

    private func outputTruncated() {
        let report = onOutputTruncated
        onOutputTruncated = nil
        if !finished { report?() }
    }

    private func finishIfDone() {
        guard !finished, let exit, outputs.allSatisfy({ $0?.ended ?? true }) else { return }
        finished = true
        let result = Result(
            exit: exit, standardOutput: outputs[0]?.captured ?? Captured(),
            standardError: outputs[1]?.captured ?? Captured())
        closeHandle(handle)
        onExit?(result)
    }

    func handleClosed() {
        if pidDescriptor >= 0 { Glibc.close(pidDescriptor) }
        pidDescriptor = -1
        finished = true
        onExit = nil
        onOutputTruncated = nil
        onOutput = nil
        onExited = nil
    }
}

/// One captured output stream of a ``ChildProcess``: its pipe and what was read.
private final class OutputCapture {
    let limit: Int
    let pipe: PipeReader
    var captured = ChildProcess.Captured()
    var ended = false
    /// Called the first time the stream passes the limit.
    var onTruncated: (() -> Void)?
    /// Each read of a streamed output.
    var onStream: ((UnsafeRawBufferPointer) -> Void)?

    init(_ output: ChildProcess.Output, pipe: PipeReader) {
        self.pipe = pipe
        var keepsTail = false
        switch output {
        case .capture(let limit): self.limit = limit
        case .captureTail(let limit):
            self.limit = limit
            keepsTail = true
        default:
            limit = 0
            pipe.onRead = { [unowned self] bytes in self.onStream?(bytes) }
            return
        }
        pipe.onRead = { [unowned self] bytes in
            if keepsTail {
                self.captured.bytes.append(contentsOf: bytes)
                let excess = self.captured.bytes.count - self.limit
                if excess > 0 {
                    self.captured.bytes.removeFirst(excess)
                    self.captured.truncated = true
                }
                return
            }
            let room = self.limit - self.captured.bytes.count
            if bytes.count > room, !self.captured.truncated {
                self.captured.truncated = true
                self.onTruncated?()
            }
            if room > 0 { self.captured.bytes.append(contentsOf: bytes.prefix(room)) }
        }
    }
}
