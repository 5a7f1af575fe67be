/// The text format of menud's state file: readable, diffable, keyed by path.
///
/// ```
/// # menud state 1
/// expanded power
/// collapsed apps
/// value display/volume 60
/// value misc/greeting hello world
/// ```
///
/// Paths never contain blanks (ids are `[A-Za-z0-9._-]`), so a value is simply the
/// rest of its line; values never contain line breaks (see ``ValueRule``).
public enum StateFileFormat {
    public static let header = "# menud state 1"

    public static func encode(_ entries: [StateEntry]) -> String {
        var out = header + "\n"
        for e in entries {
            switch e.field {
            case .expanded(true): out += "expanded \(e.path)\n"
            case .expanded(false): out += "collapsed \(e.path)\n"
            case .value(let v): out += "value \(e.path) \(v)\n"
            }
        }
        return out
    }

    /// Why a state file could not be read: the 1-based line and what is wrong.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses a whole file; any malformed line makes the whole file suspect, so the
    /// daemon sets it aside rather than applying half of it.
    public static func decode(_ text: String) -> Result<[StateEntry], Problem> {
        var entries: [StateEntry] = []
        // "\r\n" is one Character in Swift, so it needs naming to be a separator.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        guard lines.first.map(String.init) == header else {
            return .failure(Problem(line: 1, message: "missing header '\(header)'"))
        }
        for (n, line) in lines.enumerated().dropFirst() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            let path = parts.count > 1 ? String(parts[1]) : ""
            guard !path.isEmpty, !path.contains(where: { $0 == "\t" || $0 == " " }) else {
                return .failure(Problem(line: n + 1, message: "expected a path"))
            }
            switch parts[0] {
            case "expanded" where parts.count == 2:
                entries.append(StateEntry(path: path, field: .expanded(true)))
            case "collapsed" where parts.count == 2:
                entries.append(StateEntry(path: path, field: .expanded(false)))
            case "value" where parts.count == 3:
                entries.append(StateEntry(path: path, field: .value(String(parts[2]))))
            default:
                return .failure(Problem(line: n + 1, message: "cannot read '\(line.prefix(60))'"))
            }
        }
        return .success(entries)
    }
}
