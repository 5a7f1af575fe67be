import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Jobs on the pool's threads, their results back on the loop's.
@Suite(.ownThread) struct BackgroundWorkTests {
    private static func threadID() -> UInt { UInt(pthread_self()) }

    /// The calling thread's nice value: Linux keeps one per thread, and `who` 0 is
    /// the caller.
    private static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    /// A job runs on another thread, below the loop's priority; its `done` runs on
    /// the loop's thread, and may start the next job. The loop runs until the last
    /// result is in, and then holds no handle for the pool.
    @Test func aJobRunsElsewhereAndItsResultComesBackToTheLoop() throws {
        let loopThread = Self.threadID()
        let loopNice = Self.niceness()
        var results: [(worker: UInt, nice: Int32, doneOn: UInt)] = []
        try runLoop { loop in
            func start(_ left: Int) throws {
                try BackgroundWork.run(
                    on: loop, { (Self.threadID(), Self.niceness()) },
                    then: { (worker: UInt, nice: Int32) in
                        results.append((worker, nice, Self.threadID()))
                        if left > 1 { try? start(left - 1) }
                    })
            }
            try start(3)
        }
        #expect(results.count == 3)
        for result in results {
            #expect(result.worker != loopThread)
            #expect(result.nice > loopNice)
            #expect(result.doneOn == loopThread)
        }
    }

    /// Many jobs at once, more than there are threads: every result comes back once.
    @Test func everyJobOfManyComesBackOnce() throws {
        var seen: [Int] = []
        try runLoop { loop in
            for k in 0..<100 {
                try BackgroundWork.run(on: loop, { k * 2 }, then: { seen.append($0) })
            }
        }
        #expect(seen.sorted() == (0..<100).map { $0 * 2 })
    }

    /// A pool thread takes no asynchronous signal: a child's SIGCHLD is the loop's.
    @Test func aPoolThreadBlocksSignals() throws {
        var blocked: Bool?
        try runLoop { loop in
            try BackgroundWork.run(
                on: loop,
                { () -> Bool in
                    var mask = sigset_t()
                    pthread_sigmask(SIG_SETMASK, nil, &mask)
                    return sigismember(&mask, SIGCHLD) == 1 && sigismember(&mask, SIGTERM) == 1
                }, then: { blocked = $0 })
        }
        #expect(blocked == true)
    }
}
