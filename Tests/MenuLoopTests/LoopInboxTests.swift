import Dispatch
import MenuLoop
import TestSupport
import Testing

@Suite(.ownThread) struct LoopInboxTests {
    /// Touched only on the loop's thread, by work posted from another.
    private final class Received: @unchecked Sendable {
        var values: [Int] = []
        var postedAfterClose = true
    }

    @Test func workPostedFromAnotherThreadRunsOnTheLoopInOrder() throws {
        let received = Received()
        try runLoop { loop in
            let inbox = try LoopInbox(loop: loop)
            DispatchQueue.global().async {
                for value in 0..<1000 {
                    inbox.post { received.values.append(value) }
                }
                inbox.post {
                    inbox.close()
                    received.postedAfterClose = inbox.post {}
                }
            }
        }
        #expect(received.values == Array(0..<1000))
        #expect(!received.postedAfterClose)
    }
}
