import Foundation
import TestSupport
import Testing

/// A real openbox as the window manager of an ``XSession``, reading
/// contrib/openbox/menu.xml as its menu file: its root menu is the pipe menu
/// `menuctl render --format openbox`, run with the session's PATH (the build's
/// menuctl first) and `MENUD_SOCKET`. `Super+m` shows the root menu at the pointer.
///
/// openbox has no way to ask what a menu shows, but each open menu is a window of the
/// root and each of its entries a child window of that, so xwininfo gives their
/// places; a test points at them with xdotool. The rc file shows a submenu as soon as
/// the pointer is on its entry. The menu is opened with a key rather than the usual
/// right click: openbox then takes a click at once, where after a click it ignores
/// the pointer's buttons for a while (`hideDelay`), so that the release of the click
/// that opened the menu does not close it.
struct OpenboxDesktop: NativeMenuProgram {
    static let programs = ["Xvfb", "openbox", "xdotool", "xwininfo", "import"]

    let x: XSession
    let openbox: BackgroundProcess

    var log: String { openbox.log }

    /// `menu` replaces the contrib file as the menu file.
    static func start(_ x: XSession, _ daemon: TestDaemon, menu: String? = nil) async throws -> OpenboxDesktop
    {
        let menu = menu ?? TestPaths.packageRoot.appendingPathComponent("contrib/openbox/menu.xml").path
        let rc = x.directory.file("rc.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <openbox_config xmlns="http://openbox.org/3.4/rc">
          <menu>
            <file>\(menu)</file>
            <submenuShowDelay>0</submenuShowDelay>
          </menu>
          <keyboard>
            <keybind key="W-m"><action name="ShowMenu"><menu>root-menu</menu></action></keybind>
          </keyboard>
        </openbox_config>
        """.write(toFile: rc, atomically: true, encoding: .utf8)
        var environment = x.environment(daemon)
        // openbox keeps a cache and its session files under HOME.
        environment["HOME"] = x.directory.path
        // openbox runs its --startup command once it has started everything, its key
        // bindings grabbed, just before its main loop. Its check window, named
        // Openbox, comes much earlier: a key sent once that showed could go nowhere.
        let ready = x.directory.file("openbox-ready")
        let openbox = try x.start(
            "openbox", ["--config-file", rc, "--startup", "touch " + ready], environment: environment)
        try await openbox.waitWhileRunning("openbox to start") {
            FileManager.default.fileExists(atPath: ready)
        }
        return OpenboxDesktop(x: x, openbox: openbox)
    }

    /// The pointer is moved first, where the menu opens, away from the entries of the
    /// last one. Not waited for (see ``XSession/movePointer(to:_:)``): the server
    /// takes the move before the key, and the test reads where the menu opened.
    func open() throws {
        let result = try x.run("xdotool", ["mousemove", "1", "1", "key", "super+m"])
        #expect(result.status == 0, "xdotool: \(result)")
    }

    /// The key again, should the first have gone nowhere. A ShowMenu for the menu
    /// already shown does nothing.
    func askAgain() throws { try open() }

    /// The menus open now: the root's children that are mapped, bigger than openbox's
    /// 1×1 helper windows, each with its entries, the frame's child windows.
    func windows() throws -> [MenuWindow] {
        let visible = try x.visibleWindows(["--maxdepth", "1", "--name", ".*"])
        return try Self.children(x, of: "-root").filter {
            $0.width > 1 && $0.height > 1 && Int($0.id.dropFirst(2), radix: 16).map(visible.contains) == true
        }.map { frame in
            var frame = frame
            frame.entries = try Self.children(x, of: frame.id).sorted { $0.y < $1.y }.map {
                (x: $0.x + $0.width / 2, y: $0.y + $0.height / 2)
            }
            return frame
        }
    }

    /// The child windows of `window` (`-root`, or an id), with their places on the
    /// screen, from xwininfo's lines: `0x200264 (has no name): ()  419x17+0+17  +2+19`.
    private static func children(_ x: XSession, of window: String) throws -> [MenuWindow] {
        let arguments = window == "-root" ? ["-root", "-children"] : ["-id", window, "-children"]
        let output = try x.run("xwininfo", arguments).stdout
        let line = /^\s+(0x[0-9a-f]+) .*\s(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+(-?\d+)\+(-?\d+)\s*$/
        return output.split(separator: "\n").compactMap { text in
            guard let match = text.wholeMatch(of: line), let width = Int(match.2), let height = Int(match.3),
                let left = Int(match.4), let top = Int(match.5)
            else { return nil }
            return MenuWindow(id: String(match.1), x: left, y: top, width: width, height: height, entries: [])
        }
    }
}
