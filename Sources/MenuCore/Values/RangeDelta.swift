/// A change of a range node's value relative to what it is, as `step` and the
/// `increase` and `decrease` moves make it (``ValueRule/stepped(_:by:)``).
public enum RangeDelta: Sendable, Hashable {
    /// Whole steps, up when positive: the rule's `step`, or for a range without one
    /// 1% of its span, so that a wheel moves it too.
    case steps(Int)
    /// An amount in the node's own units, up when positive.
    case amount(Double)

    /// A delta as `step` takes it: `+N` or `-N`. The sign is required: `5` could be
    /// meant as the value 5 (`set`'s job) as well as "5 more", and a delta that
    /// guesses wrong moves a volume a long way.
    public static func parse(_ text: String) -> Result<RangeDelta, ValueError> {
        guard let sign = text.utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            if ValueRule.number(text) != nil {
                return .failure(
                    ValueError("'\(text)' has no sign: write +\(text) to add or -\(text) to subtract"))
            }
            return .failure(ValueError("expected a delta as +N or -N, got '\(text)'"))
        }
        // A second sign (`+-5`, `--5`) is refused by the number's own rule: Double
        // would read `+-5` as nothing, and `number` requires a finite decimal.
        guard let n = ValueRule.number(text) else {
            return .failure(ValueError("expected a delta as +N or -N, got '\(text)'"))
        }
        return .success(.amount(n))
    }
}

extension ValueRule {
    /// Where a range's `value` goes when moved by `delta`; nil for any other rule.
    ///
    /// The sum is clamped to `min...max`, then, when the rule has a step, snapped to
    /// the nearest value on the step from `min` (a half step rounds up) that lies
    /// inside the bounds; so a move always ends on a value ``accepts(_:)`` takes, and
    /// an amount under half a step changes nothing. The result is rounded to the
    /// decimals of `min` and the step (of the value and the delta, for a range without
    /// a step), so that steps of 0.1 make 0.3 and not 0.30000000000000004.
    public func stepped(_ value: Double, by delta: RangeDelta) -> Double? {
        guard case .range(let lo, let hi, let step) = self else { return nil }
        // Halved first: max − min of two finite doubles can overflow to infinity.
        let unit = step > 0 ? step : (hi / 2 - lo / 2) / 50
        let amount: Double
        switch delta {
        case .steps(let count): amount = Double(count) * unit
        case .amount(let given): amount = given
        }
        // A sum past the largest double is infinite, which the clamp brings back.
        let target = Swift.min(Swift.max(value + amount, lo), hi)
        guard step > 0 else {
            return Self.rounded(
                target, places: [value, amount, lo, hi].map(Self.decimalPlaces).max() ?? 0)
        }
        return snapped(target, min: lo, max: hi, step: step)
    }

    /// `target`, already inside the bounds, on the nearest step from `lo` that is too.
    private func snapped(_ target: Double, min lo: Double, max hi: Double, step: Double) -> Double {
        let places = Swift.max(Self.decimalPlaces(lo), Self.decimalPlaces(step))
        let q = (target - lo) / step
        // Past 2^52 steps a double cannot tell neighbouring steps apart, and the
        // rule's check cannot either: `target` is as near the grid as it can be.
        guard q.isFinite, q < 0x1p52 else { return target }
        let k = q.rounded()
        let snapped = Self.rounded(lo + k * step, places: places)
        guard snapped > hi else { return snapped }
        // The step nearest lies past `max`. `max` itself is on the grid when the
        // check accepts it (it may only look past it by a rounding error); else the
        // step below is the last one inside.
        if case .success = check(number: hi, min: lo, max: hi, step: step) { return hi }
        return Swift.max(lo, Self.rounded(lo + (k - 1) * step, places: places))
    }

    /// How many decimals `x` has as it is written shortest: 2 for 0.25, 5 for 1e-05.
    static func decimalPlaces(_ x: Double) -> Int {
        let text = "\(x)"
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        var fraction = parts[0].split(separator: ".", maxSplits: 1).dropFirst().first ?? ""
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return Swift.max(0, fraction.count - exponent)
    }

    /// `x` rounded to `places` decimals, as parsing those decimals would give it;
    /// unchanged when it has too many digits for a double to hold them all.
    static func rounded(_ x: Double, places: Int) -> Double {
        guard places <= 15 else { return x }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = x * scale
        guard abs(scaled) < 0x1p52 else { return x }
        return scaled.rounded() / scale
    }
}
