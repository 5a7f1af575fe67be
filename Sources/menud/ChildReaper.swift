import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Collects the exit status of every child the daemon started, so that none lingers
/// as a zombie. menud is the only one starting processes in its address space (no
/// Foundation `Process`), so reaping any child (`waitpid(-1)`) takes nothing from
/// anybody. A plain SIGCHLD handler is used because `waitpid` is async-signal-safe and
/// this needs no thread, no timer and no cooperation from the event loop.
///
/// Some children's statuses matter (a failing `on-change` is logged, a failing
/// `children-cmd` shows an error row), so the handler also writes each reaped pid and
/// status to a pipe (`write` is async-signal-safe too), which ``ChildExits`` reads on
/// the event loop and hands to whoever registered that pid.
enum ChildReaper {
    /// The pipe's write end, for the handler; -1 until installed.
    nonisolated(unsafe) private static var reportFD: Int32 = -1

    /// Installs the handler; call once, before any child is started. Returns the
    /// read end of the status pipe, for ``ChildExits/start(reading:on:)``.
    static func install() throws(PosixPipe.Failure) -> Int32 {
        // Non-blocking: a full pipe loses a report rather than stalling the handler.
        let fds = try PosixPipe.make(nonBlockingWrite: true)
        reportFD = fds.write
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var status: Int32 = 0
            while true {
                let pid = waitpid(-1, &status, WNOHANG)
                if pid <= 0 { break }
                var record: (Int32, Int32) = (pid, status)
                _ = withUnsafeBytes(of: &record) { write(ChildReaper.reportFD, $0.baseAddress, $0.count) }
            }
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        // SA_RESTART: a child exiting must not make the event loop's syscalls fail.
        action.sa_flags = SA_RESTART | SA_NOCLDSTOP
        sigaction(SIGCHLD, &action, nil)
        return fds.read
    }
}

/// How a child ended, from a `waitpid` status.
struct ChildStatus: Sendable, Hashable, CustomStringConvertible {
    var raw: Int32
    /// The `WIFEXITED`/`WEXITSTATUS` and `WTERMSIG` macros, which Swift cannot import.
    var exitCode: Int32? { raw & 0x7f == 0 ? (raw >> 8) & 0xff : nil }
    var signal: Int32? { raw & 0x7f == 0 ? nil : raw & 0x7f }
    var succeeded: Bool { exitCode == 0 }
    var description: String {
        if let exitCode { return "exited with status \(exitCode)" }
        return "killed by signal \(signal ?? 0)"
    }
}

/// Delivers child exit statuses on the event loop to whoever registered the pid.
/// Registration happens on the loop right after the spawn and reports are read on
/// the same loop, so a report can never arrive before its registration.
final class ChildExits {
    private var waiting: [pid_t: (ChildStatus) -> Void] = [:]

    /// Calls `done` once when `pid` exits.
    func register(_ pid: pid_t, _ done: @escaping (ChildStatus) -> Void) { waiting[pid] = done }

    func reported(pid: pid_t, status: Int32) {
        waiting.removeValue(forKey: pid)?(ChildStatus(raw: status))
    }

    /// Reads the reaper's pipe on `loop`, the daemon's loop.
    static func start(reading fd: Int32, into exits: NIOLoopBound<ChildExits>) -> EventLoopFuture<Channel> {
        NIOPipeBootstrap(group: exits.eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(ExitReportDecoder(exits: exits)))
                }
            }
            .takingOwnershipOfDescriptor(input: fd)
    }
}

/// Turns the reaper's 8-byte records, however the reads split them, into
/// ``ChildExits/reported(pid:status:)`` calls.
private struct ExitReportDecoder: ByteToMessageDecoder {
    typealias InboundOut = Never
    let exits: NIOLoopBound<ChildExits>

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard buffer.readableBytes >= 8,
            let pid = buffer.readInteger(endianness: .host, as: Int32.self),
            let status = buffer.readInteger(endianness: .host, as: Int32.self)
        else { return .needMoreData }
        exits.value.reported(pid: pid, status: status)
        return .continue
    }
}
