/// The current value of a value node. Each case belongs to one node kind, and
/// `description` is the canonical text used on the wire, in titles and in state files.
public enum Value: Sendable, Hashable, CustomStringConvertible {
    case toggle(Bool)
    case number(Double)
    case choice(String)
    case text(String)
    case date(CalendarDate)

    public var description: String {
        switch self {
        case .toggle(let on): return on ? "on" : "off"
        case .number(let n): return Value.format(n)
        case .choice(let id): return id
        case .text(let s): return s
        case .date(let d): return d.description
        }
    }

    /// Integral numbers print without a fraction (`60`, not `60.0`), because that
    /// is what a user typed and what a bar should show.
    public static func format(_ n: Double) -> String {
        if let whole = integral(n) { return String(whole) }
        return String(n)
    }

    /// `n` as an integer when ``format(_:)`` prints it as one.
    public static func integral(_ n: Double) -> Int? {
        n == n.rounded() && abs(n) < 1e15 ? Int(n) : nil
    }
}
