import Logging
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The programs the menu's commands (`value-cmd`, `value-listen`, `on-change`) could
/// not find. A menu written for another machine (the built-in one, where `pactl` or
/// `nmcli` is missing) fails the same way on every node, run and retry: each program
/// is logged once, by name (`pactl: not found`), and the failures it explains are
/// not logged again.
///
/// The commands run with `/bin/sh -c`, which says so on its standard error
/// (`sh: 1: pactl: not found`, bash's `sh: line 1: pactl: command not found`) and
/// goes on with the rest of the command: the program missing may be in a pipeline
/// or `$(…)`, where no exit status tells. A command whose standard error is not read
/// exits with 127 when its program is missing, and is looked up on `PATH`.
final class MissingPrograms {
    /// How much of a command's standard error is kept to find sh's words in: its end.
    static let errorOutputLimit = 4096

    private let logger: Logger
    /// The programs logged already.
    private var logged: Set<String> = []

    init(logger: Logger) { self.logger = logger }

    /// The programs sh could not find, as its standard error names them, in order
    /// and each once; each new one is logged, with `user` (`value-cmd display/volume`)
    /// for where it was first missed.
    func found(in standardError: ChildProcess.Captured, user: String) -> [String] {
        let names = Self.names(in: standardError.bytes)
        for name in names { log(name, user: user) }
        return names
    }

    /// For a command that exited with 127 and whose standard error was not read:
    /// its first word, when that is a program's name that `PATH` does not have;
    /// logged when new.
    func found(exitOf command: String, _ exit: ChildProcess.Exit, user: String) -> String? {
        guard exit == .exited(127) else { return nil }
        let word = command.prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_.+/".contains($0) }
        guard !word.isEmpty, plain, !word.contains("="), !Self.isOnPath(String(word)) else { return nil }
        log(String(word), user: user)
        return String(word)
    }

    private func log(_ name: String, user: String) {
        guard logged.insert(name).inserted else { return }
        logger.warning("\(name): not found (needed by \(user); not logged again)")
    }

    /// sh's "not found" lines: `sh: 1: NAME: not found`, `sh: line 1: NAME: command
    /// not found`, `sh: NAME: not found`. Only sh's own lines count: a program may
    /// say "not found" of anything.
    static func names(in bytes: [UInt8]) -> [String] {
        var names: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ": ", omittingEmptySubsequences: false)
            guard parts.count >= 3, parts[0] == "sh" || parts[0].hasSuffix("/sh"),
                parts.last == "not found" || parts.last == "command not found"
            else { continue }
            let name = String(parts[parts.count - 2])
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names
    }

    private static func isOnPath(_ name: String) -> Bool {
        if name.contains("/") { return access(name, X_OK) == 0 }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}
