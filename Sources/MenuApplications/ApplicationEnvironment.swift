/// What the applications menu depends on in the daemon's environment: where the
/// desktop entries are, the user's locale and desktop, and `PATH` for `TryExec`.
/// Read once on the daemon's loop and handed to a scan on another thread.
public struct ApplicationEnvironment: Sendable, Equatable {
    /// The `applications` directories, most important first: `$XDG_DATA_HOME`'s,
    /// then each of `$XDG_DATA_DIRS`'s.
    public var directories: [String]
    public var locale: DesktopLocale
    /// `$XDG_CURRENT_DESKTOP`'s names, for `OnlyShowIn` and `NotShowIn`.
    public var desktops: [String]
    /// `$PATH`'s directories, for a `TryExec` without a `/`.
    public var path: [String]

    public init(directories: [String], locale: DesktopLocale, desktops: [String], path: [String]) {
        self.directories = directories
        self.locale = locale
        self.desktops = desktops
        self.path = path
    }

    /// The XDG Base Directory defaults where a variable is unset or empty:
    /// `~/.local/share` and `/usr/local/share:/usr/share`. Relative entries are
    /// ignored, as the specification says.
    public init(environment: [String: String]) {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var data: [String] = []
        if let home = nonEmpty("XDG_DATA_HOME") {
            data.append(home)
        } else if let home = nonEmpty("HOME") {
            data.append(home + "/.local/share")
        }
        data += (nonEmpty("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(
            String.init)
        var seen = Set<String>()
        directories = data.filter { $0.hasPrefix("/") }.map { Self.trimmingSlashes($0) + "/applications" }
            .filter { seen.insert($0).inserted }
        locale = DesktopLocale(environment: environment)
        desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init)
        path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path == "/" ? "" : String(path)
    }
}
