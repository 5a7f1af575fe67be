import MenuLoop
import TestSupport
import Testing

@Suite(.ownThread) struct AfterEventsTests {
    /// Two timers due at once fire in one turn; the closure runs after both, not
    /// between them, as menud's replies are written after all of a turn's reads.
    @Test func runsAfterEveryEventOfTheTurn() throws {
        var fired: [String] = []
        var seenAfter: [[String]] = []
        try runLoop { loop in
            let after = AfterEvents(loop: loop)
            var timers: [LoopTimer] = []
            after.onRun = {
                guard !fired.isEmpty else { return }
                seenAfter.append(fired)
                after.close()
                for timer in timers { timer.close() }
            }
            after.start()
            for name in ["a", "b"] {
                let timer = LoopTimer(loop: loop)
                timer.onFire = { fired.append(name) }
                timer.start(after: .milliseconds(5))
                timers.append(timer)
            }
        }
        #expect(seenAfter == [["a", "b"]])
    }

    /// Started, it is not a reason for the loop to go on: a loop with nothing else
    /// returns from `run()`.
    @Test func doesNotKeepTheLoopRunning() throws {
        var after: AfterEvents?
        func setUp(_ loop: EventLoop) {
            after = AfterEvents(loop: loop)
            after?.start()
        }
        try runLoop(limit: .seconds(10), afterRun: { after?.close() }, setUp)
    }
}
