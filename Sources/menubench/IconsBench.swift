import Foundation
import MenuApplications
import MenuIcons

/// Section "icons": resolving a menu's icon names to files, as `menuctl render
/// --format openbox` does once per menu shown, in the machine's own themes
/// (Adwaita, which inherits hicolor, as Debian's GTK installs them). The menu's cost
/// is a new ``IconTheme`` and every name looked up once: its directories are listed
/// the first time each is needed. It is compared with the same names each looked up
/// by a theme of its own, so that no listing is kept from one name to the next,
/// which is what a lookup without the cache would cost.
struct IconsBench {
    /// The icon names of the example menus and the applications menu's categories.
    static let names =
        [
            "applications-other", "utilities-terminal", "web-browser", "accessories-text-editor",
            "system-file-manager", "preferences-system", "network-wireless", "preferences-desktop-theme",
            "computer", "video-display", "audio-volume-high", "display-brightness", "system-shutdown",
            "system-reboot", "system-lock-screen", "system-log-out", "bluetooth", "weather-clear",
            "no-such-icon-anywhere", "firefox-esr",
        ] + ApplicationMenu.categories.map(\.icon) + [ApplicationMenu.other.icon]

    func run() -> [BenchResult] {
        let environment: (String) -> String? = {
            ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/usr/share"][$0]
        }
        let bases = IconThemeSetting.baseDirectories(environment)
        let check = IconTheme(name: "Adwaita", baseDirectories: bases)
        let found = Self.names.filter { check.file(for: $0) != nil }.count
        var menu: [Double] = []
        var alone: [Double] = []
        var warm: [Double] = []
        for _ in 0..<15 {
            var theme: IconTheme?
            menu.append(
                Stopwatch.once {
                    let t = IconTheme(name: "Adwaita", baseDirectories: bases)
                    for name in Self.names { _ = t.file(for: name) }
                    theme = t
                })
            alone.append(
                Stopwatch.once {
                    for name in Self.names {
                        _ = IconTheme(name: "Adwaita", baseDirectories: bases).file(for: name)
                    }
                })
            warm.append(
                Stopwatch.once {
                    for name in Self.names { _ = theme!.file(for: name) }
                } / Double(Self.names.count))
        }
        menu.sort()
        alone.sort()
        warm.sort()
        let n = Self.names.count
        return [
            BenchResult(
                section: "icons",
                name:
                    "\(n) icon names to files in Adwaita and hicolor, one menu (\(found) found, \(check.directoriesListed) folders listed)",
                value: BenchResult.micros(menu[menu.count / 2]),
                comparison:
                    "each name with no listing kept: \(BenchResult.micros(alone[alone.count / 2])), "
                    + "\(BenchResult.rounded(alone[alone.count / 2] / menu[menu.count / 2]))×; a name looked up again: "
                    + "\(BenchResult.micros(warm[warm.count / 2]))",
                target: "≤ 10 ms", met: menu[menu.count / 2] <= 10e6)
        ]
    }
}
