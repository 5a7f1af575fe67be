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
        return Int(((Swift.min(Swift.max(value, min), max) - min) / (max - min) * 100).rounded(.down))
    }
}
