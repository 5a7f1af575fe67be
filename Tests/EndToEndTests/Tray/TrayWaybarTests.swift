import Foundation
import TestSupport
import Testing

/// The tray in a real tray host: waybar's `tray` module in a headless sway, as a user
/// made for the test, with a session bus of that user's and menud on it. waybar is
/// also the `org.kde.StatusNotifierWatcher`, so what it registered is read from its
/// watcher, and its own dbusmenu client is seen reading each item's layout on the bus.
///
/// The headless sway has no pointer (its seat has no capabilities, and wlroots'
/// headless backend makes no input devices), so no click can open the menu here:
/// the menu's contents are checked through the items waybar's watcher lists.
@Suite(.ownThread) struct TrayWaybarTests {
    static let programs = SwaySession.programs + SessionBus.programs + ["waybar"]

    static let menu = """
        settings:
          tray: true
        menu:
          - id: audio
            title: Audio
            icon: audio-volume-high-symbolic
            children:
              - id: mute
                title: Mute
                type: toggle
              - id: volume
                title: "Volume {value}"
                type: range
                step: 10
                value: 60
          - id: net
            title: Network
            icon: network-wireless-symbolic
            children:
              - id: wifi
                title: "Wi-Fi: {value}"
                type: toggle
                value: on
          - id: power
            title: Power
            icon: system-shutdown-symbolic
            children:
              - id: lock
                title: Lock
                exec: "true"
        """

    static let waybarConfig = """
        { "layer": "top", "position": "top", "height": 30, "modules-left": [], "modules-right": ["tray"],
          "tray": { "icon-size": 20, "spacing": 8 } }
        """
    /// Light, so that the symbolic icons, drawn dark, stand out from it.
    static let background: (UInt8, UInt8, UInt8) = (0xf0, 0xf0, 0xf0)
    static let style = """
        * { font-family: "DejaVu Sans Mono"; font-size: 13px; }
        window#waybar { background: #f0f0f0; color: #101010; }
        """

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func waybarShowsTheItemsAndFindsThemAgain() async throws {
        try XTools.require(Self.programs)
        try await withTestUser { user in
            try await withSwaySession(user: user, width: 640, height: 120) { sway in
                try await withSessionBus(in: sway) { bus in
                    let config = sway.directory.file("menu.yaml")
                    try Self.menu.write(toFile: config, atomically: true, encoding: .utf8)
                    try user.own(config)
                    try await user.withDaemon(config: config, environment: sway.environment) { daemon in
                        try await Self.check(sway, bus, daemon, user: user, config: config)
                    }
                }
            }
        }
    }

    private static func check(
        _ sway: SwaySession, _ bus: SessionBus, _ daemon: TestDaemon, user: TestUser, config: String
    ) async throws {
        let monitor = try await bus.monitor(match: "type='method_call',member='GetLayout'")
        let prefix = "org.kde.StatusNotifierItem-\(daemon.pid)-"
        try write(waybarConfig, style, in: sway)
        var bar = try sway.start("waybar", [])

        // The three items register with waybar's watcher.
        var registered = try await waitForRegistered(bus, bar, count: 3, prefix: prefix)
        let watcher = try #require(try bus.owner(of: "org.kde.StatusNotifierWatcher"))
        // waybar's own dbusmenu client reads each item's layout.
        var owners: [String] = []
        for entry in registered {
            owners.append(try #require(try bus.owner(of: busName(entry))))
        }
        try await monitor.waitWhileRunning("waybar to read each item's layout", state: monitor.log) {
            let calls = monitor.log.split(separator: "\n").filter { $0.contains("\"sender\":\"\(watcher)\"") }
            return owners.allSatisfy { owner in calls.contains { $0.contains("\"destination\":\"\(owner)\"") }
            }
        }
        // What the watcher lists is the menu: each item's layout holds its menu's rows.
        var labels: [String: [String]] = [:]
        for entry in registered {
            let name = busName(entry)
            let (_, root) = try bus.layout(of: name)
            labels[try id(of: name, bus) ?? name] = root.flattened().compactMap(\.entry.text)
        }
        #expect(labels["audio"]?.contains("Volume 60") == true, "\(labels)")
        #expect(labels["net"]?.contains("Wi-Fi: on") == true, "\(labels)")
        #expect(labels["power"]?.contains("Lock") == true, "\(labels)")
        // waybar draws the icons.
        try sway.screenshot("tray-waybar")
        // The bar's rows are its background but for the icons (the icon theme's
        // colour, antialiased): more than half background, and not all of it.
        try await sway.waitForFrame("waybar to draw the tray's icons", drawnBy: bar) {
            let bar = $0.count(background, rows: 28)
            return bar > 28 * $0.width / 2 && bar < 28 * $0.width - 100
        }

        // waybar restarts, and with it the watcher: the items register again.
        await bar.stop()
        bar = try sway.start("waybar", [])
        registered = try await waitForRegistered(bus, bar, count: 3, prefix: prefix)

        // A reload that adds a menu and removes one: the new item registers, and the
        // watcher drops the removed one when its connection goes.
        let removed = try #require(registered.first { (try? id(of: busName($0), bus)) == "power" })
        let withoutPower = menu[..<(try #require(menu.range(of: "  - id: power"))).lowerBound]
        try
            (withoutPower
            + "  - id: clock\n    title: Clock\n    children:\n      - id: today\n        title: Today\n        type: date\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try user.menuctl(daemon, ["reload"]).status == 0)
        let reloaded = try await waitForRegistered(bus, bar, count: 3, prefix: prefix) {
            !$0.contains(removed)
        }
        #expect(reloaded.count == 3 && !reloaded.contains(removed), "\(reloaded)")
        #expect(bar.isRunning, "waybar log: \(bar.log)")
    }

    /// The bus name of an item as the watcher lists it (`NAME/PATH`).
    private static func busName(_ registered: String) -> String {
        String(registered.prefix { $0 != "/" })
    }

    /// The item's `Id`: its menu's id.
    private static func id(of name: String, _ bus: SessionBus) throws -> String? {
        try bus.property(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Id") as? String
    }

    /// Waits until waybar's watcher lists `count` of menud's items (and `also` holds
    /// of them), and returns them as the watcher has them (`NAME/PATH`).
    private static func waitForRegistered(
        _ bus: SessionBus, _ bar: BackgroundProcess, count: Int, prefix: String,
        also: ([String]) -> Bool = { _ in true }
    ) async throws -> [String] {
        var items: [String] = []
        try await bar.waitWhileRunning("waybar's watcher to list \(count) items", state: "\(items)") {
            let listed = try? bus.property(
                "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher",
                "RegisteredStatusNotifierItems")
            items = (listed as? [String] ?? []).filter { $0.hasPrefix(prefix) }
            return items.count == count && also(items)
        }
        return items
    }

    static func write(_ config: String, _ style: String, in sway: SwaySession) throws {
        let directory = sway.directory.file("config/waybar")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try config.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        try style.write(toFile: directory + "/style.css", atomically: true, encoding: .utf8)
        for path in [
            sway.directory.file("config"), directory, directory + "/config", directory + "/style.css",
        ] {
            try sway.user.own(path)
        }
    }
}
