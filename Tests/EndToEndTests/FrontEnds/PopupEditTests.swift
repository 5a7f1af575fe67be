import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// The popup's editors under Xvfb: a text row's entry, a date row's calendar, and
/// "Loading…" under a `children-cmd` group whose command has not answered yet. The
/// values are read back from the daemon and from a subscriber; what only shows in
/// the popup, from its window's height. The focus is moved with the popup's own
/// keys, so that it is the popup's as much as the daemon's.
@Suite(.ownThread) struct PopupEditTests {
    static let menu = """
        menu:
          - {id: name, title: Name, type: text, value: old}
          - {id: due, title: Due, type: date, value: 2026-12-02}
        """

    /// Enter on a text row puts the keys in its entry; what is typed there is sent
    /// by Enter, a subscriber sees it, and the keys are the rows' again.
    @Test(.enabled(if: XTools.shouldRun(Popup.programs)))
    func enterCommitsTheTypedText() async throws {
        try await Popup.withSession(Self.menu) { daemon, x in
            let events = try daemon.connect()
            try events.subscribe("value")
            let (popup, _) = try await Popup.start(x, daemon)
            #expect(try Popup.focused(daemon) == "name", "the first row has the focus from the start")
            try Popup.key(x, "Return")
            // The entry selects its text as it takes the keys: typing replaces it.
            try x.type("new text", thenReturn: true)
            try Popup.expectEvent(events, "value\tname\tnew text")
            #expect(try Popup.value(daemon, "name") == "new text")
            #expect(popup.isRunning, "\(popup.log)")
            try Popup.key(x, "Down")
            try await waitUntil("Down to focus due after the edit") { try Popup.focused(daemon) == "due" }
        }
    }

    /// Escape in the entry drops what was typed and leaves the popup open; the next
    /// Escape closes it. The daemon's value never moved.
    @Test(.enabled(if: XTools.shouldRun(Popup.programs)))
    func escapeRevertsTheEntry() async throws {
        try await Popup.withSession(Self.menu) { daemon, x in
            let (popup, _) = try await Popup.start(x, daemon)
            #expect(try Popup.focused(daemon) == "name")
            try Popup.key(x, "Return")
            try x.type("dropped", thenReturn: false)
            try Popup.key(x, "Escape")
            // Down reaches the rows only once the edit has ended.
            try Popup.key(x, "Down")
            try await waitUntil("Down to focus due after Escape") { try Popup.focused(daemon) == "due" }
            #expect(popup.isRunning, "Escape in the entry ends the edit, not the popup")
            #expect(try Popup.value(daemon, "name") == "old")
            try Popup.key(x, "Escape")
            try await waitUntil("the second Escape to close the popup") { !popup.isRunning }
            #expect(try Popup.value(daemon, "name") == "old")
        }
    }

    /// A value the daemon refuses (a control character, typed as GTK's Unicode
    /// input Ctrl+Shift+U 7f) leaves the daemon's value, and shows the error under
    /// the row: the window grows by its line.
    @Test(.enabled(if: XTools.shouldRun(Popup.programs)))
    func aRefusedTextShowsTheErrorInline() async throws {
        try await Popup.withSession(Self.menu) { daemon, x in
            let (popup, frame) = try await Popup.start(x, daemon)
            #expect(try Popup.focused(daemon) == "name")
            try Popup.key(x, "Return")
            try x.type("bad", thenReturn: false)
            #expect(try x.run("xdotool", ["key", "ctrl+shift+u", "7", "f", "space", "Return"]).status == 0)
            try await waitUntil("the error to show under the row; the popup's log: \(popup.log)") {
                try Popup.height(x) > frame.height
            }
            #expect(try Popup.value(daemon, "name") == "old")
            #expect(popup.isRunning)
        }
    }

    /// Enter on a date row opens its calendar under it (the window grows); the
    /// arrows and Page Down move the day, Enter sends it and closes the calendar.
    @Test(.enabled(if: XTools.shouldRun(Popup.programs)))
    func theCalendarPicksADate() async throws {
        try await Popup.withSession(Self.menu) { daemon, x in
            let events = try daemon.connect()
            try events.subscribe("value")
            let (popup, frame) = try await Popup.start(x, daemon)
            try Popup.key(x, "Down")
            try await waitUntil("Down to focus due") { try Popup.focused(daemon) == "due" }
            try Popup.key(x, "Return")
            try await waitUntil("the calendar to open; the popup's log: \(popup.log)") {
                try Popup.height(x) > frame.height + 50
            }
            // 2026-12-02, a day on, a week on, a month on: 2027-01-10.
            for key in ["Right", "Down", "Next", "Return"] { try Popup.key(x, key) }
            try Popup.expectEvent(events, "value\tdue\t2027-01-10")
            #expect(try Popup.value(daemon, "due") == "2027-01-10")
            // Escape closes a calendar opened again, and sends nothing.
            for key in ["Return", "Left", "Escape", "Up"] { try Popup.key(x, key) }
            try await waitUntil("Up to move the focus once the calendar closed") {
                try Popup.focused(daemon) == "name"
            }
            #expect(try Popup.value(daemon, "due") == "2027-01-10")
            #expect(popup.isRunning)
        }
    }

    /// A `children-cmd` group opened for the first time shows "Loading…" under it
    /// while its command runs (here, until the test writes to the fifo it reads),
    /// then its children in its place.
    @Test(.enabled(if: XTools.shouldRun(Popup.programs)))
    func aChildrenCommandShowsLoadingUntilItAnswers() async throws {
        let folder = try TempDirectory()
        let fifo = folder.file("children")
        #expect(mkfifo(fifo, 0o600) == 0)
        let menu = """
            menu:
              - {id: nets, title: Networks, children-cmd: "cat \(fifo)"}
              - {id: one, title: One, exec: "true"}
              - {id: two, title: Two, exec: "true"}
            """
        try await Popup.withSession(menu) { daemon, x in
            let (popup, frame) = try await Popup.start(x, daemon)
            #expect(try Popup.focused(daemon) == "nets")
            try Popup.key(x, "Right")
            try await waitUntil("Loading… under the group; the popup's log: \(popup.log)") {
                try Popup.height(x) > frame.height
            }
            let loading = try Popup.height(x)
            let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
            writer.write(Data("- {title: Home, exec: \"true\"}\n- {title: Cafe, exec: \"true\"}\n".utf8))
            try writer.close()
            try await waitUntil("the two children in Loading…'s place") { try Popup.height(x) > loading }
            let rows = try daemon.menuctl(["--raw", "rows"]).stdout
            #expect(rows.contains("\tHome") && rows.contains("\tCafe") && !rows.contains("Loading"))
        }
        withExtendedLifetime(folder) {}
    }
}
