import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// menud-popup on a real X server (Xvfb), driven with xdotool as a user would: its
/// keys, and the pointer on its switch and slider. Every outcome is read back from
/// the daemon (menuctl) and from a second client's subscription, never from the
/// popup's own word.
@Suite(.ownThread) struct PopupTests {
    static let programs = Popup.programs

    static let menu = """
        menu:
          - id: net
            title: Network
            children:
              - {id: wifi, title: "Wi-Fi", type: toggle, value: off}
              - {id: vpn, title: VPN, type: toggle, value: off, key: v}
          - id: sound
            title: Sound
            children:
              - {id: volume, title: Volume, type: range, min: 0, max: 100, step: 5, value: 50}
        """

    /// A menu of one row, so that its control is where the window's geometry says.
    static func oneRow(_ row: String) -> String { "menu:\n  - \(row)\n" }

    /// The arrows move the daemon's focus, Right opens the focused group, Enter flips
    /// the focused toggle: the daemon's focus, expansion and value say so, and so do
    /// a subscriber's events.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func keysMoveTheFocusOpenAGroupAndFlipAToggle() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let events = try daemon.connect()
                    try events.subscribe("value")
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus net").isOK)
                    try Popup.key(x, "Right")
                    try await waitUntil("Right to open net; the popup's log: \(popup.log)") {
                        try Popup.field(daemon, "net", 4) == "expanded"
                    }
                    try Popup.key(x, "Down")
                    try await waitUntil("Down to focus net/wifi") {
                        try daemon.menuctl(["--raw", "focused"]).stdout.contains("\tnet/wifi")
                    }
                    try Popup.key(x, "Return")
                    try Popup.expectEvent(events, "value\tnet/wifi\ton")
                    #expect(try Popup.value(daemon, "net/wifi") == "on")
                    #expect(popup.isRunning, "flipping a toggle keeps the popup open")
                }
            }
        }
    }

    /// Alt with a row's access key activates that row of the focused group.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func altAndAnAccessKeyActivateTheRow() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus net").isOK)
                    try Popup.key(x, "alt+v")
                    try await waitUntil("Alt+V to flip net/vpn; the popup's log: \(popup.log)") {
                        try Popup.value(daemon, "net/vpn") == "on"
                    }
                    #expect(try Popup.value(daemon, "net/wifi") == "off")
                }
            }
        }
    }

    /// A click on a toggle's switch flips it in the daemon.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aClickOnTheSwitchFlipsTheToggle() async throws {
        try XTools.require(Self.programs)
        let menu = Self.oneRow("{id: wifi, title: Wi-Fi, type: toggle, value: off}")
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, frame) = try await Popup.start(x, daemon)
                    // The switch is the row's last widget, at the window's right.
                    let click = [
                        "mousemove", "\(frame.x + frame.width - 30)", "\(frame.y + frame.height / 2)",
                        "click", "1",
                    ]
                    #expect(try x.run("xdotool", click).status == 0)
                    try await waitUntil("the click to flip wifi; the popup's log: \(popup.log)") {
                        try Popup.value(daemon, "wifi") == "on"
                    }
                }
            }
        }
    }

    /// A slider dragged past its left end leaves the daemon at the range's lowest
    /// value: the drag's last position is the last value sent, however many moves
    /// came while a `set` was on its way.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func theSliderDraggedLeavesTheLastPosition() async throws {
        try XTools.require(Self.programs)
        let menu = Self.oneRow(
            "{id: volume, title: Volume, type: range, min: 0, max: 100, step: 5, value: 50}")
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let events = try daemon.connect()
                    try events.subscribe("value")
                    let (popup, frame) = try await Popup.start(x, daemon)
                    let y = "\(frame.y + frame.height / 2)"
                    // The trough fills the row's right half but the number after it.
                    var drag = [
                        "mousemove", "\(frame.x + frame.width - 80)", y, "sleep", "0.1", "mousedown", "1",
                    ]
                    for step in stride(from: frame.width - 90, through: 0, by: -10) {
                        drag += ["mousemove", "\(frame.x + step)", y, "sleep", "0.02"]
                    }
                    drag += ["mouseup", "1"]
                    #expect(try x.run("xdotool", drag).status == 0)
                    try await waitUntil("the drag to end at 0; the popup's log: \(popup.log)") {
                        try Popup.value(daemon, "volume") == "0"
                    }
                    try Popup.expectEvent(events, "value\tvolume\t0")
                }
            }
        }
    }

    /// The popup closes when it loses the pointer and keyboard it holds: a click
    /// outside it changes nothing in the daemon and ends it, and so does its window
    /// being unmapped (as a window manager does when it shows another workspace).
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func itClosesWhenItLosesTheFocus() async throws {
        try await Popup.withSession(Self.menu) { daemon, x in
            let before = try daemon.menuctl(["--raw", "rows"]).stdout
            let (clicked, frame) = try await Popup.start(x, daemon)
            let outside = ["\(frame.x + frame.width + 200)", "\(frame.y + frame.height + 200)"]
            #expect(try x.run("xdotool", ["mousemove"] + outside + ["click", "1"]).status == 0)
            try await waitUntil("a click outside to close the popup") { !clicked.isRunning }
            #expect(clicked.exitStatus == 0, "\(clicked.ending); \(clicked.log)")
            #expect(try daemon.menuctl(["--raw", "rows"]).stdout == before)

            let (unmapped, _) = try await Popup.start(x, daemon)
            let ids = try x.run("xdotool", ["search", "--onlyvisible", "--class", "menud-popup"]).stdout
            let id = try #require(ids.split(separator: "\n").first.map(String.init))
            #expect(try x.run("xdotool", ["windowunmap", id]).status == 0)
            try await waitUntil("the unmapped popup to close") { !unmapped.isRunning }
            #expect(unmapped.exitStatus == 0, "\(unmapped.ending); \(unmapped.log)")
        }
    }

    /// A wheel notch over the slider moves it one step, each way.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func theWheelStepsTheSlider() async throws {
        let menu = Self.oneRow(
            "{id: volume, title: Volume, type: range, min: 0, max: 100, step: 5, value: 50}")
        try await Popup.withSession(menu) { daemon, x in
            let (popup, frame) = try await Popup.start(x, daemon)
            let at = ["mousemove", "\(frame.x + frame.width - 80)", "\(frame.y + frame.height / 2)"]
            #expect(try x.run("xdotool", at + ["click", "4"]).status == 0)
            try await waitUntil("a notch up to give 55; the popup's log: \(popup.log)") {
                try Popup.value(daemon, "volume") == "55"
            }
            #expect(try x.run("xdotool", ["click", "5", "click", "5"]).status == 0)
            try await waitUntil("two notches down to give 45") { try Popup.value(daemon, "volume") == "45" }
        }
    }

    /// A value the system reports (a `value-listen` command's line, here read from a
    /// fifo the test writes) moves the slider: the next wheel notch steps from it, so
    /// the daemon gets the system's value and one step, not the old value's. A group
    /// opened after the value came tells when the popup has shown it: the popup
    /// takes the daemon's changes in order.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aValueTheSystemChangesMovesTheSlider() async throws {
        let folder = try TempDirectory()
        let fifo = folder.file("volume")
        #expect(mkfifo(fifo, 0o600) == 0)
        let menu = """
            menu:
              - {id: volume, title: Volume, type: range, min: 0, max: 100, step: 5, value: 50,
                 value-listen: "exec cat \(fifo)"}
              - {id: more, title: More, children: [{id: a, title: A, exec: "true"}]}
            """
        try await Popup.withSession(menu) { daemon, x in
            let events = try daemon.connect()
            try events.subscribe("value")
            let (popup, frame) = try await Popup.start(x, daemon)
            let system = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
            defer { try? system.close() }
            system.write(Data("20\n".utf8))
            try Popup.expectEvent(events, "value\tvolume\t20")
            #expect(try daemon.request("expand more").isOK)
            try await waitUntil("the popup to show more open, after the value") {
                try Popup.height(x) > frame.height
            }
            // The slider's row is the first of two.
            let at = ["mousemove", "\(frame.x + frame.width - 80)", "\(frame.y + frame.height / 4)"]
            #expect(try x.run("xdotool", at + ["click", "4"]).status == 0)
            try await waitUntil("the notch to step from the system's 20; the popup's log: \(popup.log)") {
                try Popup.value(daemon, "volume") != "20"
            }
            #expect(try Popup.value(daemon, "volume") == "25")
        }
        withExtendedLifetime(folder) {}
    }

    /// Enter on an item runs it, and the popup closes.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func anItemRunsAndThePopupCloses() async throws {
        try XTools.require(Self.programs)
        try await withConfigFile(Self.oneRow("{id: run, title: Run, exec: touch ran}")) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in
                    let (popup, _) = try await Popup.start(x, daemon)
                    #expect(try daemon.request("focus run").isOK)
                    try Popup.key(x, "Return")
                    try await waitUntil("the item to run") { daemon.directory.contains("ran") }
                    try await waitUntil("the popup to close after its item ran") { !popup.isRunning }
                    #expect(popup.exitStatus == 0, "\(popup.ending); \(popup.log)")
                }
            }
        }
    }

    /// A group of 10,000 items opens, and End shows its last rows: a click on the
    /// popup's top row runs one of the last items, so what is drawn there is the end
    /// of the group, each row the item it says it is.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aGroupOfTenThousandOpensAndEndShowsItsLastRows() async throws {
        let items = (0..<10_000).map { "      - {id: i\($0), title: Item \($0), exec: echo \($0) > ran}" }
        let menu =
            "menu:\n  - id: big\n    title: Big\n    children:\n" + items.joined(separator: "\n") + "\n"
        try await Popup.withSession(menu) { daemon, x in
            #expect(try daemon.request("focus big").isOK)
            let (popup, closed) = try await Popup.start(x, daemon)
            try Popup.key(x, "Right")
            try await waitUntil("Right to open the group; the popup's log: \(popup.log)") {
                try Popup.height(x) > closed.height
            }
            let frame = try Popup.shownFrame(x)
            let before = try x.frame()
            try Popup.key(x, "End")
            try await waitUntil("End to focus the last item") { try Popup.focused(daemon) == "big/i9999" }
            // The focused row, highlighted, comes to the window's bottom edge.
            let bottom = (x: frame.x + 4, y: frame.y + frame.height - 6)
            try await waitUntil("the popup to show the focused last row at its bottom") {
                try x.frame().differs(at: bottom.x, bottom.y, from: before, tolerance: 40)
            }
            // The window shows about 26 rows of the 10,001: its top one is among the last 60.
            let click = ["mousemove", "\(frame.x + 60)", "\(frame.y + 12)", "click", "1"]
            #expect(try x.run("xdotool", click).status == 0)
            try await waitUntil("the click to run an item; the popup's log: \(popup.log)") {
                daemon.directory.contains("ran")
            }
            let ran = try String(contentsOfFile: daemon.directory.file("ran"), encoding: .utf8)
            let number = try #require(Int(ran.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect((9_940..<9_999).contains(number), "the top row ran item \(number)")
            #expect(try Popup.focused(daemon) == "big/i\(number)")
            try await waitUntil("the popup to close after its item ran") { !popup.isRunning }
        }
    }

    /// A resident popup starts hidden; each later run opens or closes it and exits at
    /// once, Escape and an item that ran hide it, and it stays running throughout,
    /// its keys working each time it opens.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func aResidentPopupOpensAndClosesOnEachRun() async throws {
        try await Popup.withSession(Self.menu) { daemon, x in
            func visible() throws -> Bool {
                try x.run("xdotool", ["search", "--onlyvisible", "--class", "menud-popup"]).status == 0
            }
            func run() throws {
                let result = try x.run(TestPaths.popup, ["--socket", daemon.socketPath, "--at", "0,0"])
                #expect(result.status == 0, "\(result)")
            }
            let resident = try x.start(
                TestPaths.popup, ["--resident", "--at", "0,0"], environment: x.environment(daemon))
            let lock = daemon.socketPath + ".popup"
            try await waitUntil("the resident popup to claim its lock; its log: \(resident.log)") {
                (try? String(contentsOfFile: lock, encoding: .utf8))?.contains(" resident") == true
            }
            #expect(try !visible(), "a resident popup starts hidden")

            try run()
            try await waitUntil("a run to open the resident popup; its log: \(resident.log)") {
                try visible()
            }
            #expect(try daemon.request("focus net").isOK)
            try Popup.key(x, "Right")
            try await waitUntil("Right to open net") { try Popup.field(daemon, "net", 4) == "expanded" }
            try Popup.key(x, "Escape")
            try await waitUntil("Escape to hide it") { try !visible() }
            #expect(resident.isRunning, "Escape hides a resident popup")

            try run()
            try await waitUntil("a second run to open it again") { try visible() }
            try Popup.key(x, "Down")
            try await waitUntil("Down to focus net/wifi") { try Popup.focused(daemon) == "net/wifi" }
            try run()
            try await waitUntil("a third run to close it") { try !visible() }
            #expect(resident.isRunning, "a run closes a resident popup without ending it")
        }
    }

    /// Escape closes the popup, and so does running it again, which then exits at
    /// once: one bar `on-click` opens and closes it.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func escapeAndASecondRunCloseIt() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let (first, _) = try await Popup.start(x, daemon)
                try Popup.key(x, "Escape")
                try await waitUntil("Escape to close the popup") { !first.isRunning }
                #expect(first.exitStatus == 0, "\(first.ending); \(first.log)")

                let (second, _) = try await Popup.start(x, daemon)
                var environment = x.environment(daemon)
                environment["DISPLAY"] = nil
                let again = try run(TestPaths.popup, [], environment: environment)
                #expect(again.status == 0, "\(again)")
                try await waitUntil("a second run to close the popup") { !second.isRunning }
                #expect(second.exitStatus == 0, "\(second.ending); \(second.log)")
                #expect(try daemon.request("ping").isOK)
            }
        }
    }

    /// Menu text is data: a title of Pango markup, one of three lines, one with `_` and
    /// entities, and one of 10 kB show as plain text on one line, the long one cut: the
    /// window is as tall as with four plain titles (markup's 60-point span, or a title
    /// on three lines, would make its row taller), and narrower than the screen.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func hostileTitlesAreTextOnOneLine() async throws {
        try XTools.require(Self.programs)
        let plain = (1...4).map { "  - {id: r\($0), title: \"Row number \($0)\", exec: \"true\"}" }
        let hostile = [
            "  - {id: r1, title: \"<span size='60000'>big</span>\", exec: \"true\"}",
            "  - {id: r2, title: \"one\\ntwo\\nthree\", exec: \"true\"}",
            "  - {id: r3, title: \"_Mnemonic &amp; <b>bold</b>\", exec: \"true\"}",
            "  - {id: r4, title: \"\(String(repeating: "wide ", count: 2_000))\", exec: \"true\"}",
        ]
        var frames: [(x: Int, y: Int, width: Int, height: Int)] = []
        try await withXSession { x in
            for rows in [plain, hostile] {
                try await withConfigFile("menu:\n" + rows.joined(separator: "\n") + "\n") { config in
                    try await withDaemon(config: config) { daemon in
                        #expect(
                            try daemon.menuctl(["--raw", "rows"]).stdout.split(separator: "\n").count == 4)
                        let (popup, frame) = try await Popup.start(x, daemon)
                        frames.append(frame)
                        if rows == hostile { try x.screenshot("popup-hostile") }
                        try Popup.key(x, "Escape")
                        try await waitUntil("Escape to close the popup") { !popup.isRunning }
                    }
                }
            }
        }
        #expect(frames.count == 2)
        guard frames.count == 2 else { return }
        #expect(frames[1].height == frames[0].height, "plain \(frames[0]), hostile \(frames[1])")
        #expect(frames[1].width < 1024, "hostile \(frames[1])")
    }

    /// Without a daemon the popup says so in one line and fails, display or not.
    @Test func withoutADaemonItSaysSoInOneLineAndFails() throws {
        let directory = try TempDirectory()
        let result = try run(
            TestPaths.popup, ["--socket", directory.file("socket")],
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("menud-popup: menud is not running"), "\(result.stderr)")
    }

    /// When the daemon stops, the popup closes with one line saying why, and leaves
    /// nothing running.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func theDaemonStoppingClosesThePopup() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let (popup, _) = try await Popup.start(x, daemon)
                await daemon.stop()
                try await waitUntil("the popup to close when menud stopped") { !popup.isRunning }
                #expect(popup.exitStatus == 1, "\(popup.ending); \(popup.log)")
                #expect(popup.log.contains("menud-popup: menud closed the connection"), "\(popup.log)")
            }
        }
    }
}
