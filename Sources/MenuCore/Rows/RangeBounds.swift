/// A range node's bounds and step, as rows carry them.
public struct RangeBounds: Sendable, Hashable {
    public var min: Double
    public var max: Double
    public var step: Double

    public init(min: Double, max: Double, step: Double) {
        self.min = min
        self.max = max
        self.step = step
    }

    /// The bounds of a range rule; nil for every other rule.
    public init?(rule: ValueRule) {
        guard case .range(let min, let max, let step) = rule else { return nil }
        self.init(min: min, max: max, step: step)
    }

    /// Where `value` lies between the bounds, from 0 to 100, rounded down.
    public func percentage(of value: Double) -> Int {
        guard max > min else { return 100 }
        let clamped = Swift.min(Swift.max(value, min), max)
        // Halved first: max − min of two finite doubles can overflow to infinity, and
        // infinity over infinity is no Int.
        let fraction = (clamped / 2 - min / 2) / (max / 2 - min / 2)
        guard fraction.isFinite else { return clamped == max ? 100 : 0 }
        return Int((fraction * 100).rounded(.down))
    }
}
