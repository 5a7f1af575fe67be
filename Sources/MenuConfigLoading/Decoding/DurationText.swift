import MenuCore

/// A duration as a config writes it: a number of seconds (`5`, `0.5`), or a number
/// with a unit, `ms`, `s`, `m` or `h` (`500ms`, `2m`), as waybar's `interval` and
/// systemd's time spans read.
enum DurationText {
    /// Under 100 ms is refused: a command run that often would keep the daemon
    /// busy. Over a day is refused as a mistake.
    static func parse(_ text: String) -> Result<Duration, ValueError> {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            scale = unit.seconds
            break
        }
        guard let n = ValueRule.number(String(number)) else {
            return .failure(ValueError("must be a duration such as 5, 1.5s, 500ms or 2m, got '\(text)'"))
        }
        let seconds = n * scale
        guard seconds >= 0.1 else { return .failure(ValueError("must be at least 100ms, got '\(text)'")) }
        guard seconds <= 86_400 else { return .failure(ValueError("must be at most a day, got '\(text)'")) }
        return .success(.milliseconds(Int64((seconds * 1000).rounded())))
    }
}
