import MenuConfigLoading
import MenuCore

#if canImport(Glibc)
    import Glibc
#endif

/// Which config the daemon serves.
enum ConfigLocation: Equatable, Sendable {
    /// `--config`, or the default path that existed when it was looked at.
    case file(String)
    /// No config on this machine: the built-in example is served, so that `swift run
    /// menud` works on a fresh machine, until one of `awaiting` (the default paths, in
    /// the order they are looked at) exists and loads.
    case builtin(awaiting: [String])

    /// `$XDG_CONFIG_HOME/menud/menu.yaml`, then `~/.config/menud/menu.yaml`.
    static func defaultPaths(environment: (String) -> String? = ProcessEnvironment.value) -> [String] {
        var paths: [String] = []
        if let xdg = environment("XDG_CONFIG_HOME"), !xdg.isEmpty {
            paths.append("\(xdg)/menud/menu.yaml")
        }
        paths.append("\(ProcessEnvironment.home(environment: environment))/.config/menud/menu.yaml")
        return paths
    }

    /// The first default path that exists, else the built-in menu awaiting them.
    static func resolve(environment: (String) -> String? = ProcessEnvironment.value) -> ConfigLocation {
        ConfigLocation.builtin(awaiting: defaultPaths(environment: environment)).lookedAtAgain()
    }

    /// The path a new config is expected at while the built-in menu is served: the
    /// first default, the one docs/config.md tells the user to write.
    var awaited: String? {
        if case .builtin(let paths) = self { return paths.first }
        return nil
    }

    /// A built-in location becomes the first awaited file that now exists; a file
    /// stays what it is, since `--config` or a file once loaded is what the user
    /// chose. A candidate counts when `stat` finds it (a symbolic link counts by what
    /// it points to), so a file that is there but unreadable is still chosen and its
    /// load says why it cannot be read.
    func lookedAtAgain() -> ConfigLocation {
        guard case .builtin(let paths) = self else { return self }
        var info = stat()
        for path in paths where stat(path, &info) == 0 { return .file(path) }
        return self
    }

    /// The file, unless the built-in menu is served.
    var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// Loads the config from where it is.
    func load() -> Result<MenuConfig, ConfigErrors> {
        switch self {
        case .file(let path): return ConfigLoader.load(path: path)
        case .builtin: return ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file)
        }
    }
}
