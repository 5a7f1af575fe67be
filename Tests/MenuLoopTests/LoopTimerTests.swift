import MenuLoop
import TestSupport
import Testing

@Suite(.ownThread) struct LoopTimerTests {
    @Test func timersFireInTheOrderOfTheirDelays() throws {
        var fired: [String] = []
        try runLoop { loop in
            for (name, delay) in [("c", 30), ("a", 10), ("b", 20)] {
                let timer = LoopTimer(loop: loop)
                timer.onFire = {
                    fired.append(name)
                    timer.close()
                }
                timer.start(after: .milliseconds(delay))
            }
        }
        #expect(fired == ["a", "b", "c"])
    }

    @Test func aRepeatingTimerFiresUntilStopped() throws {
        var count = 0
        var activeAfterStop = true
        try runLoop { loop in
            let timer = LoopTimer(loop: loop)
            timer.onFire = {
                count += 1
                if count == 5 {
                    timer.stop()
                    activeAfterStop = timer.isActive
                    // Closed a loop turn later, so that a sixth firing would show.
                    let closer = LoopTimer(loop: loop)
                    closer.onFire = {
                        closer.close()
                        timer.close()
                    }
                    closer.start(after: .milliseconds(10))
                }
            }
            timer.start(after: .milliseconds(1), repeating: .milliseconds(1))
        }
        #expect(count == 5)
        #expect(!activeAfterStop)
    }

    /// Starting a started timer moves its deadline: a stall timer is restarted on
    /// every write that the client takes.
    @Test func restartingMovesTheDeadline() throws {
        var fired: [String] = []
        try runLoop { loop in
            let restarted = LoopTimer(loop: loop)
            restarted.onFire = {
                fired.append("restarted")
                restarted.close()
            }
            restarted.start(after: .milliseconds(10))
            let marker = LoopTimer(loop: loop)
            marker.onFire = {
                fired.append("marker")
                marker.close()
            }
            marker.start(after: .milliseconds(30))
            restarted.start(after: .milliseconds(60))
        }
        #expect(fired == ["marker", "restarted"])
    }
}
