import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.ownThread) struct EventLoopTests {
    /// What every other test's harness relies on: a handle left open keeps the loop
    /// from closing, and names itself.
    @Test func aHandleLeftOpenKeepsTheLoopFromClosing() throws {
        let loop = try EventLoop()
        let timer = LoopTimer(loop: loop)
        #expect(loop.openHandles == ["timer"])
        #expect(throws: UVError.self) { try loop.close() }
        timer.close()
        loop.run()
        #expect(loop.openHandles == [])
        try loop.close()
    }

    @Test func stopEndsRunWithHandlesStillOpen() throws {
        let loop = try EventLoop()
        let timer = LoopTimer(loop: loop)
        var fired = 0
        timer.onFire = {
            fired += 1
            if fired == 3 { loop.stop() }
        }
        timer.start(after: .zero, repeating: .milliseconds(1))
        loop.run()
        #expect(fired == 3)
        #expect(timer.isActive)
        timer.close()
        loop.run()
        try loop.close()
    }

    /// A closed handle's memory is gone; its owner must not touch it again, whatever
    /// it is asked (ASan checks that).
    @Test func aClosedHandleIgnoresWhatItIsAskedLater() throws {
        var timer: LoopTimer?
        var watch: SignalWatch?
        try runLoop { loop in
            timer = LoopTimer(loop: loop)
            timer?.close()
            watch = try SignalWatch(loop: loop, signal: SIGUSR2)
            watch?.close()
        }
        timer?.start(after: .milliseconds(1))
        timer?.stop()
        timer?.keepsLoopAlive = false
        #expect(timer?.isActive == false)
        timer?.close()
        watch?.close()
    }

    /// A loop let go with handles open closes them, and their owners are released.
    @Test func aLoopLetGoClosesWhatIsLeftOpen() throws {
        weak var timer: LoopTimer?
        weak var after: AfterEvents?
        do {
            let loop = try EventLoop()
            let openTimer = LoopTimer(loop: loop)
            openTimer.start(after: .seconds(100))
            timer = openTimer
            let openAfter = AfterEvents(loop: loop)
            openAfter.start()
            after = openAfter
        }
        #expect(timer == nil)
        #expect(after == nil)
    }
}
