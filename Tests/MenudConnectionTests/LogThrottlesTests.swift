import Testing

@testable import menud

/// Each cause's failures are throttled on their own: the first is logged, the next
/// within the interval are held back and counted, and a cause that works again
/// starts over. The instants are given, so no clock is read.
@Suite struct LogThrottlesTests {
    @Test func eachCauseIsLoggedFirstThenOncePerIntervalWithWhatWasHeldBack() {
        var throttles = LogThrottles<String>(interval: .seconds(60))
        let start = ContinuousClock.now
        #expect(throttles.admit("a", now: start) == "")
        #expect(throttles.admit("a", now: start + .seconds(1)) == nil)
        #expect(throttles.admit("a", now: start + .seconds(2)) == nil)
        // Another cause is its own.
        #expect(throttles.admit("b", now: start + .seconds(2)) == "")
        #expect(throttles.admit("a", now: start + .seconds(61)) == " (and 2 more since the last report)")
        #expect(throttles.isFailing("a"))
        let first = throttles.recovered("a")
        let second = throttles.recovered("a")
        #expect(first)
        #expect(!second, "only the first success after a failure is news")
        #expect(!throttles.isFailing("a"))
        #expect(throttles.admit("a", now: start + .seconds(62)) == "")
    }
}
