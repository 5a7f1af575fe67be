import Foundation
import TestSupport
import Testing

/// A real jgmenu on an ``XSession`` with contrib/jgmenu/jgmenurc, whose `csv_cmd` is
/// `menuctl render --format jgmenu`, run with the session's PATH (the build's menuctl
/// first) and `MENUD_SOCKET`. The contrib file has jgmenu exit after a choice, so each
/// opening starts a jgmenu of its own, which reads the menu anew.
///
/// jgmenu draws its entries itself, in one window per open menu. The test's lines
/// after the contrib file's fix its place, the entries' height and no padding, so
/// entry k of a window is `itemHeight` × k below its top; a window's height counts
/// its entries. A submenu opens when the pointer rests on its entry (`hover_delay`).
final class JgmenuLauncher: NativeMenuProgram {
    static let programs = ["Xvfb", "jgmenu", "xdotool", "import"]
    static let itemHeight = 24

    let x: XSession
    private let environment: [String: String]
    private let config: String
    private(set) var process: BackgroundProcess?

    var log: String { process?.log ?? "(not started)" }

    /// `command` replaces the contrib file's `csv_cmd`.
    init(_ x: XSession, _ daemon: TestDaemon, command: String? = nil) throws {
        self.x = x
        var environment = x.environment(daemon)
        // jgmenu runs ~/.config/jgmenu/startup and keeps a cache under HOME.
        environment["HOME"] = x.directory.path
        self.environment = environment
        config = x.directory.file("jgmenurc")
        let contrib = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("contrib/jgmenu/jgmenurc"),
            encoding: .utf8)
        // Later lines win: the test's fix a place, and entries at known heights.
        let test = """

            position_mode = fixed
            menu_halign = left
            menu_valign = top
            menu_margin_x = 0
            menu_margin_y = 0
            menu_padding_top = 0
            menu_padding_bottom = 0
            sub_padding_top = 0
            sub_padding_bottom = 0
            menu_border = 0
            item_height = \(Self.itemHeight)
            item_margin_y = 0
            icon_size = 0
            font = DejaVu Sans 9
            hover_delay = 50

            """
        try (contrib + test + (command.map { "csv_cmd = \($0)\n" } ?? "")).write(
            toFile: config, atomically: true, encoding: .utf8)
    }

    func open() throws {
        process = try x.start("jgmenu", ["--config-file=\(config)"], environment: environment)
    }

    /// The last jgmenu has exited, and let go of the keyboard and pointer it grabs:
    /// its window may be gone before it has, and a jgmenu started meanwhile cannot
    /// grab them.
    func isClosed() throws -> Bool { try process?.isRunning != true && windows().isEmpty }

    /// A new jgmenu only if the last one exited without showing its menu: one that is
    /// running shows it, and a second would show another.
    func askAgain() throws {
        if process?.isRunning == false { try open() }
    }

    func windows() throws -> [MenuWindow] {
        try x.visibleWindows(["--class", "jgmenu"]).sorted().compactMap { id in
            guard let place = try x.geometry(of: id) else { return nil }
            let count = place.height / Self.itemHeight
            return MenuWindow(
                id: String(id), x: place.x, y: place.y, width: place.width, height: place.height,
                entries: (0..<count).map {
                    (
                        x: place.x + min(place.width / 2, 80),
                        y: place.y + $0 * Self.itemHeight + Self.itemHeight / 2
                    )
                })
        }
    }
}
