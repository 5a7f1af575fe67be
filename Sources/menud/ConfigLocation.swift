import MenuCore

#if canImport(Glibc)
    import Glibc
#endif

/// Which config the daemon serves when `--config` is not given.
enum ConfigLocation: Equatable {
    case file(String)
    /// No config on this machine: serve the built-in example so that `swift run
    /// menud` works on a fresh machine.
    case builtin

    /// `$XDG_CONFIG_HOME/menud/menu.yaml`, then `~/.config/menud/menu.yaml`, else the
    /// built-in menu. A candidate counts when `stat` finds it (a symbolic link counts
    /// by what it points to), so a file that is there but unreadable is still chosen
    /// and its load says why it cannot be read.
    static func resolve(environment: (String) -> String? = ProcessEnvironment.value) -> ConfigLocation {
        var candidates: [String] = []
        if let xdg = environment("XDG_CONFIG_HOME"), !xdg.isEmpty {
            candidates.append("\(xdg)/menud/menu.yaml")
        }
        candidates.append("\(ProcessEnvironment.home(environment: environment))/.config/menud/menu.yaml")
        var info = stat()
        for path in candidates where stat(path, &info) == 0 {
            return .file(path)
        }
        return .builtin
    }

    /// Loads the config from where it is; reloads call this again.
    func load() -> Result<MenuConfig, ConfigErrors> {
        switch self {
        case .file(let path): return ConfigLoader.load(path: path)
        case .builtin: return ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file)
        }
    }
}
