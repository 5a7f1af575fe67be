import Foundation

/// How many tests that run programs and block on them run at once. Without a bound
/// every such test of the suite starts at the same moment, each with its own menud
/// (and X server, bus or compositor), and on two cores each one's programs then get
/// a sliver of the machine: a test's outcome would depend on how many others there
/// are. A test waits for its turn without holding a thread.
///
/// `MENUD_TEST_WIDTH` sets the number; by default two per core. Most of these tests
/// wait on programs more than they compute, but several run a whole X session or
/// compositor, and under a sanitizer eight at once on two cores starved each other's
/// programs for seconds at a time.
public final class TestGate: @unchecked Sendable {
    public static let shared = TestGate(
        width: ProcessInfo.processInfo.environment["MENUD_TEST_WIDTH"].flatMap(Int.init)
            ?? 2 * ProcessInfo.processInfo.activeProcessorCount)

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var free: Int
    /// Guarded by `lock`: the tests waiting for a turn, first come first served.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(width: Int) { free = max(1, width) }

    /// Waits for a turn and runs `body` in it.
    public func run<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if free > 0 {
                free -= 1
                lock.unlock()
                continuation.resume()
            } else {
                waiting.append(continuation)
                lock.unlock()
            }
        }
    }

    private func leave() {
        lock.lock()
        if waiting.isEmpty {
            free += 1
            lock.unlock()
        } else {
            let next = waiting.removeFirst()
            lock.unlock()
            next.resume()
        }
    }
}
