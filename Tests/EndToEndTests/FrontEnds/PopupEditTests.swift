import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// The popup's editors under Xvfb: a text row's entry, a date row's calendar, and
/// "Loading…" under a `children-cmd` group whose command has not answered yet. The
/// values are read back from the daemon and from a subscriber; what shows in the
/// popup, from its window's height.
@Suite(.ownThread) struct PopupEditTests {
    static let programs = ["Xvfb", "xdotool"]

    static let menu = """
        menu:
          - {id: name, title: Name, type: text, value: old}
          - {id: due, title: Due, type: date, value: 2026-12-02}
        """

    /// Enter on a text row puts the keys in its entry; what is typed there is sent
    /// by Enter, and a subscriber sees it.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func enterCommitsTheTypedText() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let events = try daemon.connect()
                    try events.subscribe("value")
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus name").isOK)
                    try await waitUntil("the popup to show the focus") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tname")
                    }
                    try Popup.key(x, "Return")
                    // The entry selects its text as it takes the keys: typing replaces it.
                    try x.type("new text", thenReturn: true)
                    try Popup.expectEvent(events, "value\tname\tnew text")
                    #expect(try Popup.value(daemon, "name") == "new text")
                    #expect(popup.isRunning, "\(popup.log)")
                    // The keys are the row's again: Down moves the daemon's focus.
                    try Popup.key(x, "Down")
                    try await waitUntil("Down to focus due after the edit") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tdue")
                    }
                }
            }
        }
    }

    /// Escape in the entry drops what was typed and leaves the popup open; the next
    /// Escape closes it. The daemon's value never moved.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func escapeRevertsTheEntry() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus name").isOK)
                    try await waitUntil("the popup to show the focus") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tname")
                    }
                    try Popup.key(x, "Return")
                    try x.type("dropped", thenReturn: false)
                    try Popup.key(x, "Escape")
                    // A ping after the keys: the popup has read them all by its answer.
                    try Popup.key(x, "Down")
                    try await waitUntil("Down to focus due after Escape") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tdue")
                    }
                    #expect(popup.isRunning, "Escape in the entry ends the edit, not the popup")
                    #expect(try Popup.value(daemon, "name") == "old")
                    try Popup.key(x, "Escape")
                    try await waitUntil("the second Escape to close the popup") { !popup.isRunning }
                    #expect(try Popup.value(daemon, "name") == "old")
                }
            }
        }
    }

    /// A value the daemon refuses (a control character, typed as GTK's Unicode
    /// input Ctrl+Shift+U 7f) leaves the daemon's value, and shows the error under
    /// the row: the window grows by its line.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aRefusedTextShowsTheErrorInline() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, frame) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus name").isOK)
                    try await waitUntil("the popup to show the focus") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tname")
                    }
                    try Popup.key(x, "Return")
                    try x.type("bad", thenReturn: false)
                    #expect(
                        try x.run("xdotool", ["key", "ctrl+shift+u", "7", "f", "space", "Return"]).status == 0
                    )
                    try await waitUntil("the error to show under the row; the popup's log: \(popup.log)") {
                        try Popup.height(x) > frame.height
                    }
                    #expect(try Popup.value(daemon, "name") == "old")
                    #expect(popup.isRunning)
                }
            }
        }
    }

    /// Enter on a date row opens its calendar under it (the window grows); the
    /// arrows and Page Down move the day, Enter sends it and closes the calendar.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func theCalendarPicksADate() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let events = try daemon.connect()
                    try events.subscribe("value")
                    let (popup, frame) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus due").isOK)
                    try await waitUntil("the popup to show the focus") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tdue")
                    }
                    try Popup.key(x, "Return")
                    try await waitUntil("the calendar to open; the popup's log: \(popup.log)") {
                        try Popup.height(x) > frame.height + 50
                    }
                    // 2026-12-02, a day on, a week on, a month on: 2027-01-10.
                    for key in ["Right", "Down", "Next", "Return"] { try Popup.key(x, key) }
                    try Popup.expectEvent(events, "value\tdue\t2027-01-10")
                    #expect(try Popup.value(daemon, "due") == "2027-01-10")
                    // Escape closes a calendar opened again, and sends nothing.
                    try Popup.key(x, "Return")
                    try Popup.key(x, "Left")
                    try Popup.key(x, "Escape")
                    try Popup.key(x, "Up")
                    try await waitUntil("Up to move the focus once the calendar closed") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tname")
                    }
                    #expect(try Popup.value(daemon, "due") == "2027-01-10")
                    #expect(popup.isRunning)
                }
            }
        }
    }

    /// A `children-cmd` group opened for the first time shows "Loading…" under it
    /// while its command runs (here, until the test writes to the fifo it reads),
    /// then its children in its place.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aChildrenCommandShowsLoadingUntilItAnswers() async throws {
        try XTools.require(Self.programs)
        let folder = try TempDirectory()
        let fifo = folder.file("children")
        #expect(mkfifo(fifo, 0o600) == 0)
        let menu = """
            menu:
              - {id: nets, title: Networks, children-cmd: "cat \(fifo)"}
              - {id: one, title: One, exec: "true"}
              - {id: two, title: Two, exec: "true"}
            """
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, frame) = try await Popup.start(x, daemon)
                    // The only row has the focus from the start, as the popup's first frame shows.
                    #expect(try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tnets"))
                    try Popup.key(x, "Right")
                    try await waitUntil("Loading… under the group; the popup's log: \(popup.log)") {
                        try Popup.height(x) > frame.height
                    }
                    let loading = try Popup.height(x)
                    let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
                    writer.write(
                        Data("- {title: Home, exec: \"true\"}\n- {title: Cafe, exec: \"true\"}\n".utf8))
                    try writer.close()
                    try await waitUntil("the two children in Loading…'s place") {
                        try Popup.height(x) > loading
                    }
                    let rows = try daemon.menuctl(["--raw", "rows"]).stdout
                    #expect(rows.contains("\tHome") && rows.contains("\tCafe") && !rows.contains("Loading"))
                }
            }
        }
        withExtendedLifetime(folder) {}
    }
}
