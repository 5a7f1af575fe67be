/// How many events a tray item takes from its host: up to ``burst`` at once, and
/// ``perSecond`` a second after that. No one clicks faster; a peer that sends more
/// (a flood of `Event … clicked`) has the rest refused at once, each for the price
/// of a reply, rather than queued behind each other for the loop to work through.
struct TrayEventBudget {
    static let burst = 100.0
    static let perSecond = 100.0

    private var tokens = Self.burst
    private var last = ContinuousClock.now

    /// Whether one more event may run now.
    mutating func admit() -> Bool {
        let now = ContinuousClock.now
        let elapsed = now - last
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(Self.burst, tokens + seconds * Self.perSecond)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
