import Foundation

/// How often each thread of a process has been switched off its core, from
/// `/proc/PID/task/TID/status`: `voluntary_ctxt_switches` (it went to sleep, to wait
/// for something) plus `nonvoluntary_ctxt_switches` (it was preempted). A thread
/// that sleeps in `epoll_wait` and is never woken adds nothing to either, so the
/// count says how often a daemon woke up, whatever the machine's speed.
public struct ThreadSwitches {
    /// By thread id; the main thread's is the process id.
    public let threads: [Int32: Int]

    public init(threads: [Int32: Int]) { self.threads = threads }

    /// The threads of `pid` now; empty when it is gone.
    public init(of pid: Int32) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var threads: [Int32: Int] = [:]
        for task in tasks {
            guard let tid = Int32(task),
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            threads[tid] = status.split(separator: "\n").reduce(0) { sum, line in
                guard
                    line.hasPrefix("voluntary_ctxt_switches:")
                        || line.hasPrefix("nonvoluntary_ctxt_switches:")
                else { return sum }
                return sum + (Int(line.split(separator: "\t").last ?? "") ?? 0)
            }
        }
        self.threads = threads
    }

    /// Every thread's switches, summed.
    public var total: Int { threads.values.reduce(0, +) }

    /// How many more switches the threads made by `later`, thread by thread (a thread
    /// started since counts from zero).
    public func added(by later: ThreadSwitches) -> Int {
        later.threads.reduce(0) { sum, thread in sum + thread.value - (threads[thread.key] ?? 0) }
    }
}

/// The state letter of thread `tid` of process `pid` (`S` asleep, `R` running…),
/// from `/proc/PID/task/TID/stat`; nil when it is gone.
public func threadState(_ pid: Int32, _ tid: Int32) -> Substring? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8) else {
        return nil
    }
    return ProcessEntry(stat: stat)?.state
}
