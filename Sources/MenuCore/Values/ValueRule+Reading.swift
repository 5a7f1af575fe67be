/// A value read from the system, as the rule took it.
public struct SystemReading: Sendable, Equatable {
    public var value: Value
    /// For a range: the number the system gave when it was outside the bounds, and
    /// ``value`` is that number clamped to them.
    public var clampedFrom: Double?

    public init(value: Value, clampedFrom: Double? = nil) {
        self.value = value
        self.clampedFrom = clampedFrom
    }
}

extension ValueRule {
    /// Reads a line that a node's `value-cmd` or `value-listen` printed. It takes the
    /// spellings `set` and the config take, with the differences that reading a
    /// system's state calls for:
    /// - whitespace around the text is dropped, and a range's number may end in `%`;
    /// - a choice may be named by an option's title as well as its id (`options`, in
    ///   order, with their titles);
    /// - a number off the range's step is kept as it is, neither refused nor rounded:
    ///   rounding it and writing it back would change the real volume;
    /// - a number outside the bounds is clamped for display, and the reading says so.
    public func reading(_ line: String, options: [(id: String, title: String)] = []) -> Result<
        SystemReading, ValueError
    > {
        let text = Self.trimmed(line)
        switch self {
        case .range(let lo, let hi, _):
            var number = Substring(text)
            if number.hasSuffix("%") { number = number.dropLast() }
            guard let n = Self.number(String(number)) else {
                return .failure(ValueError("expected a number, got '\(Self.clip(text))'"))
            }
            guard n >= lo, n <= hi else {
                return .success(
                    SystemReading(value: .number(Swift.min(Swift.max(n, lo), hi)), clampedFrom: n))
            }
            return .success(SystemReading(value: .number(n)))
        case .choice(let ids):
            if let id = Self.option(named: text, ids: ids, options: options) {
                return .success(SystemReading(value: .choice(id)))
            }
            return .failure(
                ValueError("'\(Self.clip(text))' is not one of the options: \(ids.joined(separator: ", "))"))
        default:
            return parse(text).map { SystemReading(value: $0) }
        }
    }

    /// The id of the option `text` names: its id, else its title as it is, else its
    /// title in any case. `set` and a source's reading both name options this way.
    static func option(named text: String, ids: [String], options: [(id: String, title: String)]) -> String? {
        if ids.contains(text) { return text }
        let named =
            options.first(where: { $0.title == text })
            ?? options.first(where: { $0.title.lowercased() == text.lowercased() })
        return named?.id
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// At most 80 characters of `text`, for a message: a command may print anything.
    static func clip(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }
}
