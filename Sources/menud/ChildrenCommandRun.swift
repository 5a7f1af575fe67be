import MenuCore
import MenuProtocol
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a group's `children-cmd`: started detached like any command, its
/// standard output read on the event loop as it comes (never blocking it), bounded
/// in size and time. On timeout or overflow its whole process group is killed (it
/// leads its own session), so no helper it started lingers. The output is read with
/// the real loader as a YAML list of nodes, so its mistakes come as FILE:LINE:COL.
///
/// The result is never a failed future: a failure is the reason to show in the
/// group's error row.
final class ChildrenCommandRun {
    static let outputLimit = 1 << 20

    enum Outcome: Sendable {
        case loaded([NodeSpec])
        /// Why there are no children, for the error row.
        case failed(String)
    }

    private let path: String
    private let promise: EventLoopPromise<Outcome>
    private var pid: pid_t = 0
    private var output: [UInt8]?
    private var status: ChildStatus?
    private var finished = false
    private var timeout: Scheduled<Void>?
    private var channel: Channel?

    private init(path: String, loop: EventLoop) {
        self.path = path
        self.promise = loop.makePromise(of: Outcome.self)
    }

    static func start(_ command: String, path: String, timeout: TimeAmount, state: DaemonState)
        -> EventLoopFuture<Outcome>
    {
        let loop = state.loop
        let run = ChildrenCommandRun(path: path, loop: loop)
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try PosixPipe.make()
        } catch {
            return loop.makeSucceededFuture(.failed(error.description))
        }
        do throws(ProtocolError) {
            run.pid = try state.launcher.launch(command, environment: ["MENU_PATH": path], stdout: pipe.write)
        } catch {
            close(pipe.read)
            close(pipe.write)
            return loop.makeSucceededFuture(.failed(error.message))
        }
        close(pipe.write)
        state.children.register(run.pid) { run.exited($0) }
        let seconds = Double(timeout.nanoseconds) / 1e9
        run.timeout = loop.assumeIsolated().scheduleTask(in: timeout) {
            run.fail("timed out after \(seconds) s")
        }
        let bound = NIOLoopBound(run, eventLoop: loop)
        NIOPipeBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(OutputCollector(run: bound.value))
                }
            }
            .takingOwnershipOfDescriptor(input: pipe.read)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    if run.finished { channel.close(promise: nil) } else { run.channel = channel }
                case .failure(let error):
                    run.fail("cannot read its output: \(error)")
                }
            }
        return run.promise.futureResult
    }

    fileprivate func outputEnded(_ bytes: [UInt8]) {
        output = bytes
        finishIfDone()
    }

    fileprivate func outputTooLong() {
        fail("output over \(Self.outputLimit) bytes")
    }

    private func exited(_ status: ChildStatus) {
        self.status = status
        if !status.succeeded { fail(status.description) }
        finishIfDone()
    }

    private func finishIfDone() {
        guard !finished, let output, status != nil else { return }
        end()
        switch ConfigLoader.loadNodes(bytes: output, file: "children-cmd of \(path)") {
        case .success(let nodes): promise.succeed(.loaded(nodes))
        case .failure(let errors):
            let more = errors.errors.count > 1 ? " (and \(errors.errors.count - 1) more)" : ""
            promise.succeed(.failed((errors.errors.first?.description ?? "no output") + more))
        }
    }

    private func fail(_ reason: String) {
        guard !finished else { return }
        end()
        // The group, not just the shell: whatever it started must go too.
        kill(-pid, SIGKILL)
        promise.succeed(.failed(reason))
    }

    private func end() {
        finished = true
        timeout?.cancel()
        channel?.close(promise: nil)
    }
}

/// Gathers a child's standard output up to ``ChildrenCommandRun/outputLimit`` and
/// reports it when the child closes it.
private final class OutputCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let run: ChildrenCommandRun
    private var bytes: [UInt8] = []
    private var overflowed = false

    init(run: ChildrenCommandRun) { self.run = run }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !overflowed else { return }
        let buffer = Self.unwrapInboundIn(data)
        guard bytes.count + buffer.readableBytes <= ChildrenCommandRun.outputLimit else {
            overflowed = true
            run.outputTooLong()
            return
        }
        bytes += buffer.readableBytesView
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !overflowed { run.outputEnded(bytes) }
    }
}
