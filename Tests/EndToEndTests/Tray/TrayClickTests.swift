import Foundation
import TestSupport
import Testing

/// The tray's menu opened and used by real clicks: waybar's tray in a headless sway,
/// with a pointer from wayvnc (``TrayPointer``), each step checked with menuctl.
/// Where the menu and its entries are is read from the screen: a menu is what a
/// click changed, its entries the bands of text in it, top to bottom.
@Suite(.ownThread) struct TrayClickTests {
    static let programs = TrayWaybarTests.programs + TrayPointer.programs

    static let menu = """
        settings:
          tray: true
        menu:
          - id: net
            title: Network
            icon: network-wireless-symbolic
            children:
              - id: wifi
                title: "Wi-Fi: {value}"
                type: toggle
                value: on
              - id: mode
                title: "Mode: {value}"
                type: choice
                options: [Auto, Manual]
                value: Auto
              - id: scan
                title: Scan
                children-cmd: >-
                  echo run >> "$HOME/scan-runs";
                  printf -- '- title: "Found %s"\\n' "$(wc -l < "$HOME/scan-runs")"
              - id: wipe
                title: Wipe
                exec: touch "$HOME/wiped"
                confirm: Really wipe?
        """

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func realClicksActAndLeaveTheOtherClientsAsTheyWere() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 640, height: 320) { sway in
                try await withSessionBus(in: sway) { bus in
                    let config = sway.directory.file("menu.yaml")
                    try Self.menu.write(toFile: config, atomically: true, encoding: .utf8)
                    try user.own(config)
                    try await user.withDaemon(config: config, environment: sway.environment) { daemon in
                        let host = try await WaybarTrayHost(sway)
                        try await Self.check(host, daemon, user: user)
                    }
                }
            }
        }
    }

    private static func check(_ host: WaybarTrayHost, _ daemon: TestDaemon, user: TestUser) async throws {
        func get(_ path: String) throws -> String { try user.menuctl(daemon, ["get", "--raw", path]).stdout }
        // The daemon's HOME is the session's directory.
        func runs() -> Int {
            ((try? String(contentsOfFile: host.sway.directory.file("scan-runs"), encoding: .utf8)) ?? "")
                .split(separator: "\n").count
        }
        let before = try get("net")
        #expect(before.contains("\tcollapsed\t"))

        // A toggle.
        var menu = try await host.openMenu()
        try host.sway.screenshot("tray-waybar-menu")
        #expect(menu.entries.count == 4, "the menu's entries: \(menu.entries)")
        try host.click(menu, entry: 0)
        try await waitUntil("the click to flip Wi-Fi") { try get("net/wifi").contains("\toff\t") }

        // A choice, in its submenu.
        menu = try await host.openMenu()
        let choices = try await host.openSubmenu(of: menu, entry: 1)
        try host.sway.screenshot("tray-waybar-submenu")
        #expect(choices.entries.count == 2, "the choice's entries: \(choices.entries)")
        try host.click(choices, entry: 1)
        try await waitUntil("the click to pick Manual") { try get("net/mode").contains("\tManual\t") }

        // A children-cmd group runs its command once each time the host shows it
        // (GTK hosts ask several times as they show it).
        for time in 1...2 {
            menu = try await host.openMenu()
            _ = try await host.openSubmenu(of: menu, entry: 2)
            try await waitUntil("the group's command to run again (\(time))") { runs() >= time }
            try await host.closeMenu()
            #expect(runs() == time, "runs of the group's command after \(time) showings")
        }

        // A confirm: item's submenu shows its question above Yes and No.
        menu = try await host.openMenu()
        let question = try await host.openSubmenu(of: menu, entry: 3)
        try host.sway.screenshot("tray-waybar-confirm")
        // Yes and No as entries, the question above them greyed: drawn, lighter.
        #expect(question.entries.count == 2, "the question's entries: \(question.entries)")
        let drawn = try host.sway.frame().textBands(in: question.box, darkerThan: 200)
        #expect(
            drawn.count == 3 && drawn.first.map { $0.upperBound < question.entries[0].lowerBound } == true,
            "the question's text: \(drawn)")
        try await host.closeMenu()
        #expect(!host.sway.directory.contains("wiped"))

        // Nothing the host showed or hid opened anything for the other clients.
        #expect(try get("net") == before)
        #expect(try get("net/mode").contains("\tcollapsed\t"))
        #expect(try get("net/scan").contains("\tcollapsed\t"))
        #expect(host.bar.isRunning, "waybar log: \(host.bar.log)")
    }
}

/// waybar's tray in a headless sway, clicked with a real pointer.
struct WaybarTrayHost {
    /// A menu on the screen: where it is, and its entries' rows.
    struct ShownMenu {
        var box: ScreenBox
        var entries: [ClosedRange<Int>]
    }

    let sway: SwaySession
    let bar: BackgroundProcess
    let pointer: TrayPointer
    /// The screen with the bar drawn and the pointer over the icon, and no menu.
    private let rest: ScreenFrame
    private let iconX: Int

    init(_ sway: SwaySession) async throws {
        self.sway = sway
        pointer = try await TrayPointer(sway)
        try TrayWaybarTests.write(TrayWaybarTests.waybarConfig, TrayWaybarTests.style, in: sway)
        bar = try sway.start("waybar", [])
        // The icon: what the bar's rows hold besides its background, once the bar is
        // drawn (mostly its background).
        let background = TrayWaybarTests.background
        let drawn = try await sway.waitForFrame("waybar to draw the tray icon", drawnBy: bar) {
            $0.count(background, rows: 28) > 28 * $0.width / 2
                && !$0.columnRuns(rows: 2..<28, unlike: background).isEmpty
        }
        let icon = try #require(drawn.columnRuns(rows: 2..<28, unlike: background).last)
        iconX = (icon.lowerBound + icon.upperBound) / 2
        // The pointer waits over the icon, so that what a click changes is the menu.
        try pointer.move(x: iconX, y: 15)
        rest = try await sway.waitForFrame("the pointer over the icon", drawnBy: bar) {
            $0.changes(from: drawn, fromRow: 30) != nil
        }
    }

    /// Clicks the icon and returns the menu that opens.
    func openMenu() async throws -> ShownMenu {
        try pointer.click(x: iconX, y: 15)
        return try await shown("the menu", against: rest, outside: nil)
    }

    /// Clicks entry `k` of `menu` and returns the submenu that opens beside it.
    ///
    /// GTK opens a submenu once the pointer has rested on its entry, and a click that
    /// comes well after that closes it again: on a loaded machine the click can come
    /// that late. When nothing is open beside the menu a while after the click, the
    /// entry is clicked once more, as a user would.
    func openSubmenu(of menu: ShownMenu, entry k: Int) async throws -> ShownMenu {
        let what = "the submenu of entry \(k)"
        let before = try sway.frame()
        try click(menu, entry: k)
        do {
            return try await shown(what, against: before, outside: menu.box, seconds: 5)
        } catch is TimedOut {
            if try beside(menu.box, in: sway.frame(), against: before) == nil { try click(menu, entry: k) }
            return try await shown(what, against: before, outside: menu.box)
        }
    }

    /// Clicks entry `k` of `menu`.
    func click(_ menu: ShownMenu, entry k: Int) throws {
        let row = menu.entries[k]
        try pointer.click(x: menu.box.midX, y: (row.lowerBound + row.upperBound) / 2)
    }

    /// Clicks the bar away from the icon, which closes the menu, and waits for the
    /// screen to be as it was before the menu opened.
    func closeMenu() async throws {
        try pointer.click(x: 10, y: 15)
        try pointer.move(x: iconX, y: 15)
        try await sway.waitForFrame("the menu to close", drawnBy: bar) {
            $0.changes(from: rest, fromRow: 30) == nil
        }
    }

    /// The menu a click drew: what changed from `before`, beside `outside` (a menu
    /// already open) when it is given, without its frame and rounded corners.
    private func shown(
        _ what: String, against before: ScreenFrame, outside: ScreenBox?, seconds: Double = 20
    ) async throws -> ShownMenu {
        // A menu may be caught half drawn (a slow machine, a sanitizer): it counts
        // once two frames in a row show it the same.
        var found: ShownMenu?
        var last: ShownMenu?
        try await sway.waitForFrame("\(what) to open", drawnBy: bar, seconds: seconds) { frame in
            guard let box = beside(outside, in: frame, against: before) else { return false }
            let inner = box.inset(by: 6)
            guard inner.maxX > inner.minX, inner.maxY > inner.minY else { return false }
            let entries = frame.textBands(in: inner)
            guard !entries.isEmpty else { return false }
            let menu = ShownMenu(box: inner, entries: entries)
            defer { last = menu }
            guard let last, last.box == menu.box, last.entries == menu.entries else { return false }
            found = menu
            return true
        }
        return try #require(found)
    }

    /// The box around what changed in `frame` from `before`; beside `menu` (a menu
    /// already open) when it is given. A submenu is to the left or right of the menu
    /// it came from, whose own rows change too (the entry under the pointer is
    /// highlighted); the icon beside it changes too once the pointer has left it, but
    /// a change that small is not a menu.
    private func beside(_ menu: ScreenBox?, in frame: ScreenFrame, against before: ScreenFrame) -> ScreenBox?
    {
        guard let menu else { return frame.changes(from: before) }
        let sides = [0..<(menu.minX - 8), (menu.maxX + 8)..<frame.width]
        return sides.lazy.compactMap { frame.changes(from: before, columns: $0) }
            .first { $0.maxX - $0.minX > 24 && $0.maxY - $0.minY > 16 }
    }
}
