/// Where icon themes are, and which one the user chose, from the environment (a
/// variable's value by name) as the Icon Theme and Base Directory specifications
/// and GTK read them.
public enum IconThemeSetting {
    /// `$HOME/.icons`, `$XDG_DATA_HOME/icons`, each `$XDG_DATA_DIRS/icons`, then
    /// `/usr/share/pixmaps`, with the XDG defaults for unset variables; relative
    /// entries are ignored.
    public static func baseDirectories(_ environment: (String) -> String?) -> [String] {
        func nonEmpty(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        var out: [String] = []
        let home = nonEmpty("HOME")
        if let home { out.append(home + "/.icons") }
        if let data = nonEmpty("XDG_DATA_HOME") {
            out.append(data + "/icons")
        } else if let home {
            out.append(home + "/.local/share/icons")
        }
        for data in (nonEmpty("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":") {
            out.append(data + "/icons")
        }
        out.append("/usr/share/pixmaps")
        var seen = Set<String>()
        return out.filter { $0.hasPrefix("/") && seen.insert($0).inserted }
    }

    /// GTK's `gtk-icon-theme-name` from `settings.ini`: the user's
    /// (`$XDG_CONFIG_HOME/gtk-3.0`), then each of `$XDG_CONFIG_DIRS`, then
    /// `/etc/gtk-3.0`; `hicolor` when none names one.
    public static func themeName(_ environment: (String) -> String?) -> String {
        func nonEmpty(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        var configs: [String] = []
        if let config = nonEmpty("XDG_CONFIG_HOME") {
            configs.append(config)
        } else if let home = nonEmpty("HOME") {
            configs.append(home + "/.config")
        }
        configs += (nonEmpty("XDG_CONFIG_DIRS") ?? "/etc/xdg").split(separator: ":").map(String.init)
        configs.append("/etc")
        for config in configs where config.hasPrefix("/") {
            guard let text = IconFiles.text(at: config + "/gtk-3.0/settings.ini") else { continue }
            if let name = KeyFile(text: text)["Settings", "gtk-icon-theme-name"], !name.isEmpty {
                return name.count >= 2 && name.first == "\"" && name.last == "\""
                    ? String(name.dropFirst().dropLast()) : name
            }
        }
        return "hicolor"
    }
}
