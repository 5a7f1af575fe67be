import Foundation
import Testing

public struct TimedOut: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// Polls `condition` until it holds, failing with `message` after a generous bound.
/// The bound only turns a hang into a failure; no test asserts how long anything took.
///
/// The bound counts the time the condition was being checked and found false, not
/// the time the waiter itself was kept from running: a wake-up from the 20 ms pause
/// that comes late (a loaded machine, a sanitizer) extends the bound by its lateness.
/// The condition is checked once more after the bound. A wait that gives up says how
/// often its condition ran, how long it took, when it last ran and how late its
/// wake-ups came, so that a failure explains itself.
public func waitUntil(
    _ message: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) async throws {
    requireOwnThread("waitUntil", sourceLocation: sourceLocation)
    let clock = ContinuousClock()
    let pause = Duration.milliseconds(20)
    let bound = Duration.seconds(seconds)
    let start = clock.now
    var record = WaitRecord()
    func check() throws -> Bool {
        let began = clock.now
        defer { record.ran(from: began, to: clock.now) }
        return try condition()
    }
    while clock.now - start - record.lost < bound {
        if try check() { return }
        let asleep = clock.now
        try await Task.sleep(for: pause)
        record.woke(after: clock.now - asleep, asked: pause)
    }
    if try check() { return }
    throw TimedOut(
        description: "gave up waiting: \(message) (\(record.summary(since: start, now: clock.now)))")
}

/// What a ``waitUntil(_:seconds:sourceLocation:_:)`` saw of its condition and of its
/// own wake-ups.
struct WaitRecord {
    var runs = 0
    var lastRun: ContinuousClock.Instant?
    var lastTook = Duration.zero
    var longest = Duration.zero
    /// Time lost to late wake-ups: not counted against the bound.
    var lost = Duration.zero
    var latest = Duration.zero
    /// Lateness below this is the timer's and the scheduler's ordinary slack.
    static let slack = Duration.milliseconds(50)

    mutating func ran(from began: ContinuousClock.Instant, to ended: ContinuousClock.Instant) {
        runs += 1
        lastRun = ended
        lastTook = ended - began
        longest = max(longest, lastTook)
    }

    mutating func woke(after slept: Duration, asked: Duration) {
        let late = slept - asked
        latest = max(latest, late)
        if late > Self.slack { lost += late }
    }

    func summary(since start: ContinuousClock.Instant, now: ContinuousClock.Instant) -> String {
        func s(_ d: Duration) -> String {
            String(format: "%.3f s", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        let last = lastRun.map { "last ran \(s(now - $0)) ago and took \(s(lastTook))" } ?? "never ran"
        return
            "waited \(s(now - start)); the condition ran \(runs) times, \(last), the longest run \(s(longest));"
            + " the waiter woke up to \(s(latest)) late, \(s(lost)) in all, not counted against the bound"
    }
}
