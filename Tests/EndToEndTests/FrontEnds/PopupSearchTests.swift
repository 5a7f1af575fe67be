import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// The popup's search and its inline questions, on a real X server: typing at the
/// accordion searches with the daemon's `find`, and Enter opens the answer and acts
/// on it; an item with `confirm:` asks its question as Yes/No rows. Every outcome is
/// the daemon's word (menuctl), not the popup's.
@Suite(.ownThread) struct PopupSearchTests {
    static let programs = ["Xvfb", "xdotool"]

    /// Every node of interest hidden at the start: the groups are closed.
    static let menu = """
        menu:
          - id: settings
            title: Settings
            children:
              - id: radios
                title: Radios
                children:
                  - {id: bt, title: Bluetooth, type: toggle, value: off}
                  - {id: wifi, title: Wi-Fi, type: toggle, value: off}
              - {id: launch, title: Launch rocket, exec: touch launched}
              - id: power
                title: Power
                children:
                  - {id: off, title: Power off, exec: touch powered-off, confirm: "Really power off?"}
        """

    private func focused(_ daemon: TestDaemon) throws -> String {
        try daemon.menuctl(["--raw", "focused"]).stdout
    }

    /// Typing finds a toggle two closed groups down; Enter opens its groups, focuses
    /// it and flips it, as `pick --search` does, and the popup stays open.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func typingFindsAHiddenNodeAndEnterActsOnIt() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let events = try daemon.connect()
                    try events.subscribe("value")
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try x.run("xdotool", ["type", "--delay", "20", "bluet"]).status == 0)
                    try Popup.key(x, "Return")
                    try Popup.expectEvent(events, "value\tsettings/radios/bt\ton")
                    #expect(try Popup.value(daemon, "settings/radios/bt") == "on")
                    #expect(try Popup.value(daemon, "settings/radios/wifi") == "off")
                    #expect(try Popup.field(daemon, "settings", 4) == "expanded")
                    #expect(try Popup.field(daemon, "settings/radios", 4) == "expanded")
                    #expect(try focused(daemon).contains("\tsettings/radios/bt"))
                    #expect(popup.isRunning, "a toggle flipped keeps the popup open; \(popup.log)")
                }
            }
        }
    }

    /// Escape ends a search without acting: nothing opened, nothing flipped, and the
    /// accordion's keys work again.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func escapeEndsTheSearchAndChangesNothing() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus settings").isOK)
                    #expect(try x.run("xdotool", ["type", "--delay", "20", "wifi"]).status == 0)
                    try Popup.key(x, "Escape")
                    // The accordion has the keys again: Right opens the focused group.
                    try Popup.key(x, "Right")
                    try await waitUntil("Right after the search to open settings; \(popup.log)") {
                        try Popup.field(daemon, "settings", 4) == "expanded"
                    }
                    #expect(popup.isRunning, "Escape in a search ends the search, not the popup")
                    #expect(try Popup.value(daemon, "settings/radios/wifi") == "off")
                    #expect(try Popup.field(daemon, "settings/radios", 4) == "collapsed")
                }
            }
        }
    }

    /// A search that matches nothing offers nothing to act on: Enter changes
    /// nothing, and the popup stays.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aSearchWithoutAnswersActsOnNothing() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    let before = try daemon.menuctl(["--raw", "tree"]).stdout
                    #expect(try x.run("xdotool", ["type", "--delay", "20", "zqxj"]).status == 0)
                    try Popup.key(x, "Return")
                    // The popup handles its keys in order: a key after Enter is seen after it.
                    try Popup.key(x, "Escape")
                    try Popup.key(x, "Escape")
                    try await waitUntil("the second Escape to close the popup") { !popup.isRunning }
                    #expect(try daemon.menuctl(["--raw", "tree"]).stdout == before)
                    #expect(!daemon.directory.contains("launched"))
                }
            }
        }
    }

    /// An item found runs, and the popup closes, as after an item run from the rows.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func anItemFoundRunsAndThePopupCloses() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try x.run("xdotool", ["type", "--delay", "20", "rocket"]).status == 0)
                    try Popup.key(x, "Return")
                    try await waitUntil("the item found to run; \(popup.log)") {
                        daemon.directory.contains("launched")
                    }
                    try await waitUntil("the popup to close after its item ran") { !popup.isRunning }
                }
            }
        }
    }

    /// An item with `confirm:` asks inline: Enter opens the question's Yes/No rows,
    /// and Yes runs the item; No before it ran nothing.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aConfirmationIsAskedInlineAsYesAndNo() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    // `focus`, not `open`: opening the item's group would ask at once.
                    #expect(try daemon.request("open settings/power").isOK)
                    #expect(try daemon.request("focus settings/power/off").isOK)
                    try Popup.key(x, "Return")
                    try await waitUntil("Enter to ask the question; \(popup.log)") {
                        try Popup.field(daemon, "settings/power/off", 4) == "expanded"
                    }
                    #expect(try Popup.field(daemon, "settings/power/off", 8) == "Really power off?")
                    // No: the question closes and nothing runs.
                    try Popup.key(x, "Down")
                    try Popup.key(x, "Down")
                    try await waitUntil("Down twice to focus No") {
                        try focused(daemon).contains("\tsettings/power/off/no")
                    }
                    try Popup.key(x, "Return")
                    try await waitUntil("No to close the question") {
                        try Popup.field(daemon, "settings/power/off", 4) == "collapsed"
                    }
                    #expect(!daemon.directory.contains("powered-off"))
                    #expect(popup.isRunning, "a question declined keeps the popup open")
                    // Yes: the item runs and the popup closes.
                    #expect(try daemon.request("focus settings/power/off").isOK)
                    try Popup.key(x, "Return")
                    try await waitUntil("Enter to ask again") {
                        try Popup.field(daemon, "settings/power/off", 4) == "expanded"
                    }
                    try Popup.key(x, "Down")
                    try await waitUntil("Down to focus Yes") {
                        try focused(daemon).contains("\tsettings/power/off/yes")
                    }
                    try Popup.key(x, "Return")
                    try await waitUntil("Yes to run the item") { daemon.directory.contains("powered-off") }
                    try await waitUntil("the popup to close after its item ran") { !popup.isRunning }
                }
            }
        }
    }
}
