import MenuLoop
import Testing

@Suite struct AfterEventsTests {
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
        let loop = try EventLoop()
        let after = AfterEvents(loop: loop)
        after.start()
        let watchdog = LoopTimer(loop: loop)
        watchdog.keepsLoopAlive = false
        var hung = false
        watchdog.onFire = {
            hung = true
            loop.stop()
        }
        watchdog.start(after: .seconds(10))
        loop.run()
        #expect(!hung)
        after.close()
        watchdog.close()
        loop.run()
        #expect(throws: Never.self) { try loop.close() }
    }
}
