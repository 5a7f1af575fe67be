import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.ownThread) struct SignalWatchTests {
    /// Sent to the process, as a reload request is: a thread-directed `raise` would
    /// wait while the test's thread blocks the signal. No other test of the process
    /// touches SIGHUP, so while it is watched, sending it is safe.
    @Test func aRaisedSignalArrivesOnTheLoop() throws {
        var received: [Int32] = []
        try runLoop { loop in
            let watch = try SignalWatch(loop: loop, signal: SIGHUP)
            watch.onSignal = { signal in
                received.append(signal)
                watch.close()
            }
            kill(getpid(), SIGHUP)
        }
        #expect(received == [SIGHUP])
    }
}
