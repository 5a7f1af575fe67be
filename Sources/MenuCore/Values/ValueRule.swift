/// The constraint a value node puts on its value. One rule serves the config
/// loader (`value:`), the `set` command and restored state, so all three agree.
public enum ValueRule: Sendable, Hashable {
    case toggle
    case range(min: Double, max: Double, step: Double)
    case choice(options: [String])
    case text(maxBytes: Int)
    case date

    /// The longest text value, in UTF-8 bytes. Values travel on one protocol line,
    /// so this stays well under the line limit.
    public static let textLimit = 4096

    /// Parses and checks `text`. The error is a sentence fit for `ERR` or a config error.
    /// `options`, for a choice: its options with their titles, in order, so that an
    /// option can be named by its title (``option(named:ids:options:)``); the config,
    /// which has no titles yet when it reads a value, names it by id.
    public func parse(_ text: String, options: [(id: String, title: String)] = []) -> Result<
        Value, ValueError
    > {
        switch self {
        case .toggle:
            guard let on = Self.boolean(text) else {
                return .failure(ValueError("expected true, false, yes, no, on or off, got '\(text)'"))
            }
            return .success(.toggle(on))
        case .range(let lo, let hi, let step):
            guard let n = Self.number(text) else {
                return .failure(ValueError("expected a number, got '\(text)'"))
            }
            return check(number: n, min: lo, max: hi, step: step)
        case .choice(let ids):
            guard let id = Self.option(named: text, ids: ids, options: options) else {
                return .failure(
                    ValueError("'\(text)' is not one of the options: \(ids.joined(separator: ", "))"))
            }
            return .success(.choice(id))
        case .text(let limit):
            if text.utf8.count > limit {
                return .failure(ValueError("text is longer than \(limit) bytes"))
            }
            if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return .failure(ValueError("text must not contain control characters"))
            }
            return .success(.text(text))
        case .date:
            guard let d = CalendarDate(text) else {
                return .failure(ValueError("expected a date as YYYY-MM-DD, got '\(text)'"))
            }
            return .success(.date(d))
        }
    }

    /// What a boolean looks like: YAML 1.1's words `true/false/yes/no/on/off`, in any
    /// case. The config reads its plain scalars (`value: yes`, `exclusive: on`) with
    /// this, and `set` its text, so both accept the same words.
    public static func boolean(_ text: String) -> Bool? {
        guard text.utf8.count <= 5 else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// What a number looks like: a finite decimal, signed, with an optional fraction and
    /// exponent. Hex (which `Double.init` would take), `inf` and `nan` are refused
    /// because a value or bound written that way is a mistake, not an intent.
    public static func number(_ text: String) -> Double? {
        guard !text.isEmpty else { return nil }
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                continue
            default: return nil
            }
        }
        guard let n = Double(text), n.isFinite else { return nil }
        return n
    }

    /// Whether an already-typed value still satisfies this rule, for restored state
    /// and reloads where the rule may have changed under a kept value.
    public func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (.toggle, .toggle): return true
        case (.range(let lo, let hi, let step), .number(let n)):
            if case .success = check(number: n, min: lo, max: hi, step: step) { return true }
            return false
        case (.choice(let options), .choice(let id)): return options.contains(id)
        case (.text, .text(let s)): return (try? parse(s).get()) != nil
        case (.date, .date): return true
        default: return false
        }
    }

    /// The value a node starts with when the config gives none.
    public var defaultValue: Value {
        switch self {
        case .toggle: return .toggle(false)
        case .range(let lo, _, _): return .number(lo)
        case .choice(let options): return .choice(options.first ?? "")
        case .text: return .text("")
        case .date: return .date(CalendarDate(year: 1970, month: 1, day: 1)!)
        }
    }

    func check(number n: Double, min lo: Double, max hi: Double, step: Double) -> Result<
        Value, ValueError
    > {
        guard n >= lo, n <= hi else {
            return .failure(
                ValueError("\(Value.format(n)) is outside \(Value.format(lo))...\(Value.format(hi))"))
        }
        if step > 0 {
            let q = (n - lo) / step
            // Decimal steps such as 0.1 are not exact in binary; a relative tolerance
            // accepts what the user meant without accepting values between steps.
            if abs(q - q.rounded()) > 1e-9 * max(1, abs(q)) {
                return .failure(
                    ValueError(
                        "\(Value.format(n)) is not on the step \(Value.format(step)) from \(Value.format(lo))"
                    ))
            }
        }
        return .success(.number(n))
    }
}

/// Why a value was refused.
public struct ValueError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
