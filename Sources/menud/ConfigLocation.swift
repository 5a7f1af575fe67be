import Foundation
import MenuCore

/// Which config the daemon serves when `--config` is not given.
enum ConfigLocation: Equatable {
    case file(String)
    /// No config on this machine: serve the built-in example so that `swift run
    /// menud` works on a fresh machine.
    case builtin

    /// `$XDG_CONFIG_HOME/menud/menu.yaml`, then `~/.config/menud/menu.yaml`, else the
    /// built-in menu.
    static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigLocation
    {
        var candidates: [String] = []
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            candidates.append("\(xdg)/menud/menu.yaml")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        candidates.append("\(home)/.config/menud/menu.yaml")
        for path in candidates where FileManager.default.fileExists(atPath: path) {
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
