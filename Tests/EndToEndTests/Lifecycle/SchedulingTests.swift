import Foundation
import TestSupport
import Testing

/// The loop takes a processor as soon as a request wakes it, and the pool's threads
/// work behind it: the loop at the daemon's nice value with a short scheduler slice,
/// every other thread at nice 10 with the usual slice.
@Suite(.ownThread) struct SchedulingTests {
    struct ThreadSchedule {
        var thread: Int32
        var nice: Int
        /// The scheduler slice in nanoseconds, where the kernel shows it (6.12 on).
        var slice: Int?
    }

    /// Every thread of `pid`, from /proc/PID/task/TID/sched.
    static func threads(of pid: Int32) throws -> [ThreadSchedule] {
        let tasks = "/proc/\(pid)/task"
        return try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { name in
            guard let thread = Int32(name),
                let text = try? String(contentsOfFile: "\(tasks)/\(name)/sched", encoding: .utf8)
            else { return nil }
            var fields: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
                    continue
                }
                fields[parts[0].trimmingCharacters(in: .whitespaces)] = value
            }
            guard let priority = fields["prio"] else { return nil }
            return ThreadSchedule(thread: thread, nice: priority - 120, slice: fields["se.slice"])
        }
    }

    @Test func theLoopHasAShortSliceAndThePoolWorksBehindIt() async throws {
        try await withDaemon { daemon in
            // A search runs on a pool thread: there is one from then on.
            #expect(try daemon.request("find vol").isOK)
            let threads = try Self.threads(of: daemon.pid)
            let loop = try #require(threads.first { $0.thread == daemon.pid })
            let ownNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            #expect(loop.nice == Int(ownNice))
            if let slice = loop.slice { #expect(slice == 100_000) }
            let pool = threads.filter { $0.thread != daemon.pid }
            #expect(!pool.isEmpty)
            for thread in pool {
                #expect(thread.nice == max(Int(ownNice), 10), "\(thread)")
                if let slice = thread.slice { #expect(slice != 100_000, "\(thread)") }
            }
        }
    }
}
