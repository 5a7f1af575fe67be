import MenuLoop
import Testing

@Suite struct EventLoopTests {
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
}
