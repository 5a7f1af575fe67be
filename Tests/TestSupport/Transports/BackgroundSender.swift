import Foundation
import MenuClient

/// Sends bytes on a thread of its own while the test reads, so that neither side's
/// buffers can fill up and stall the other. ``finish()`` joins the thread and says
/// whether everything was sent: a send that failed is a test failure, not a shorter test.
public final class BackgroundSender: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the thread before it signals `done`, read only after waiting on it.
    private var failure: (any Error)?

    public init(_ connection: UnixSocketConnection, _ bytes: [UInt8]) {
        nonisolated(unsafe) let connection = connection
        Thread { [self] in
            do {
                try connection.send(bytes)
            } catch {
                failure = error
            }
            connection.finishSending()
            done.signal()
        }.start()
    }

    /// Waits for the thread (a hang becomes a failure after a generous bound) and
    /// throws the error of a send that failed.
    public func finish() throws {
        guard done.wait(timeout: .now() + 60) == .success else {
            throw TimedOut(description: "the sending thread did not finish")
        }
        if let failure { throw failure }
    }
}
