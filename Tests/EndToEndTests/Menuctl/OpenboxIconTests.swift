import Foundation
import TestSupport
import Testing

/// `menuctl render --format openbox` gives openbox image files for the menu's icon
/// names, found by the Icon Theme Specification in a theme the test lays out: the
/// theme GTK's settings name (or `--icon-theme`), its parent, hicolor, the
/// base directories; a name found nowhere, or one that is a path outside them, has
/// no icon. Every file given to openbox exists.
@Suite(.ownThread) struct OpenboxIconTests {
    static let menu = """
        menu:
          - id: apps
            title: Apps
            icon: folder
            children:
              - {id: term, title: Terminal, icon: utilities-terminal, exec: "true"}
              - {id: web, title: Web, icon: web-browser, exec: "true"}
              - {id: none, title: None, icon: no-such-icon, exec: "true"}
              - {id: sneaky, title: Sneaky, icon: "../../secret", exec: "true"}
              - {id: wifi, title: Wi-Fi, icon: network-wireless, type: toggle}
        """

    @Test func iconNamesBecomeFilesOfTheTheme() async throws {
        let home = try TempDirectory()
        func write(_ text: String, _ relative: String) throws {
            let path = home.file(relative)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write("[Settings]\ngtk-icon-theme-name=Fixture\n", "config/gtk-3.0/settings.ini")
        try write(
            "[Icon Theme]\nName=Fixture\nInherits=Parent\nDirectories=16x16/apps,32x32/places\n\n"
                + "[16x16/apps]\nSize=16\nType=Fixed\n\n[32x32/places]\nSize=32\nType=Fixed\n",
            "share/icons/Fixture/index.theme")
        try write(
            "[Icon Theme]\nName=Parent\nDirectories=scalable/apps\n\n"
                + "[scalable/apps]\nSize=16\nType=Scalable\nMinSize=8\nMaxSize=256\n",
            "share/icons/Parent/index.theme")
        try write(
            "[Icon Theme]\nName=Other\nDirectories=16x16/status\n\n[16x16/status]\nSize=16\nType=Fixed\n",
            "share/icons/Other/index.theme")
        try write(
            "[Icon Theme]\nName=Hicolor\nDirectories=48x48/apps\n\n[48x48/apps]\nSize=48\nType=Fixed\n",
            "share/icons/hicolor/index.theme")
        for icon in [
            "share/icons/Fixture/16x16/apps/utilities-terminal.png",
            "share/icons/Fixture/32x32/places/folder.png",
            "share/icons/Parent/scalable/apps/web-browser.svg",
            "share/icons/Other/16x16/status/network-wireless.png",
            "share/icons/hicolor/48x48/apps/network-wireless.png",
            "secret.png",
        ] {
            try write(icon, icon)
        }
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_CONFIG_DIRS": home.file("etc"),
            "XDG_DATA_HOME": home.file("data"), "XDG_DATA_DIRS": home.file("share"),
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon throws in
                func icons(_ extra: [String]) throws -> [String: String] {
                    let result = try run(
                        TestPaths.menuctl,
                        ["--socket", daemon.socketPath, "render", "--format", "openbox"] + extra,
                        environment: environment)
                    #expect(result.status == 0, "\(result)")
                    var found: [String: String] = [:]
                    for line in result.stdout.split(separator: "\n") {
                        guard let label = line.firstMatch(of: #/label="([^"]*)"/#)?.1,
                            let icon = line.firstMatch(of: #/icon="([^"]*)"/#)?.1
                        else { continue }
                        found[String(label)] = String(icon)
                    }
                    for file in found.values {
                        #expect(FileManager.default.fileExists(atPath: file), "\(file) given to openbox")
                    }
                    return found
                }
                let shown = try icons([])
                #expect(shown["Apps"] == home.file("share/icons/Fixture/32x32/places/folder.png"))
                #expect(
                    shown["Terminal"] == home.file("share/icons/Fixture/16x16/apps/utilities-terminal.png"))
                #expect(shown["Web"] == home.file("share/icons/Parent/scalable/apps/web-browser.svg"))
                #expect(
                    shown["Wi-Fi  [off]"] == home.file("share/icons/hicolor/48x48/apps/network-wireless.png"))
                #expect(shown["None"] == nil)
                #expect(shown["Sneaky"] == nil)
                // --icon-theme overrides GTK's setting.
                let other = try icons(["--icon-theme", "Other"])
                #expect(
                    other["Wi-Fi  [off]"] == home.file("share/icons/Other/16x16/status/network-wireless.png"))
                #expect(other["Terminal"] == nil)
                let refused = try daemon.menuctl(["render", "--format", "openbox", "--icon-size", "0"])
                #expect(refused.status != 0 && refused.stderr.contains("--icon-size"), "\(refused)")
            }
        }
    }
}
