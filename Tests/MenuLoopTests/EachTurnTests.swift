import MenuLoop
import TestSupport
import Testing

@Suite(.ownThread) struct EachTurnTests {
    /// It runs turn after turn, and a timer that comes due meanwhile fires between
    /// two of its runs: the loop serves its events between the pieces. The timer is
    /// started by the second run, already due, so that what fires when does not hang
    /// on how quickly the loop got going.
    @Test func runsEachTurnWithEventsBetween() throws {
        var runs = 0
        var runsWhenTheTimerFired: Int?
        try runLoop { loop in
            let work = EachTurn(loop: loop)
            let timer = LoopTimer(loop: loop)
            work.onRun = {
                runs += 1
                if runs == 2 { timer.start(after: .zero) }
                guard runsWhenTheTimerFired != nil else { return }
                work.stop()
                work.close()
            }
            timer.onFire = {
                runsWhenTheTimerFired = runs
                timer.close()
            }
            work.start()
        }
        let fired = try #require(runsWhenTheTimerFired)
        #expect(fired >= 2)
        #expect(runs == fired + 1)
    }

    /// Stopped, it leaves the loop nothing to run for: `run()` returns.
    @Test func stoppedItDoesNotKeepTheLoopRunning() throws {
        var work: EachTurn?
        try runLoop(
            afterRun: { work?.close() },
            { loop in
                let each = EachTurn(loop: loop)
                var runs = 0
                each.onRun = {
                    runs += 1
                    if runs == 3 { each.stop() }
                }
                each.start()
                work = each
            })
        #expect(work?.isActive == false)
    }
}
