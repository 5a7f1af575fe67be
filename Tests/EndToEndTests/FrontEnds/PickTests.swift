import Foundation
import TestSupport
import Testing

/// `menuctl pick` through a scripted launcher, and through rofi -dmenu under Xvfb.
@Suite(.ownThread) struct PickTests {
    /// A dmenu-style launcher that plays a script: its Nth run picks the first line
    /// containing the Nth line of `answers` (or types that text when no line has it, or
    /// when the answer starts with `=`, as dmenu's Shift+Return sends what was typed),
    /// printing the line (without the options rofi and fuzzel read after a NUL) or, as
    /// an index launcher, its 0-based index. Like fuzzel and
    /// rofi it prints -1 for typed text when it prints indexes. It prints indexes with
    /// `index`, or as the launchers do when given fuzzel's `--index` (a flag: bemenu's
    /// `--index N` only highlights a row) or rofi's `-format i`. It saves what it was
    /// shown, its prompt, and the row to highlight ($MENUCTL_ROW, $MENUCTL_ROW_TEXT).
    private func scriptedLauncher(_ daemon: TestDaemon, answers: [String], index: Bool) throws -> String {
        let dir = daemon.directory
        try answers.joined(separator: "\n").appending("\n").write(
            toFile: dir.file("answers"), atomically: true, encoding: .utf8)
        let script = """
            idx=\(index ? 1 : 0)
            while [ $# -gt 0 ]; do
                case $1 in
                    --index) case ${2-} in ''|-*) idx=1 ;; *) shift ;; esac ;;
                    -format) [ "${2-}" = i ] && idx=1; [ $# -gt 1 ] && shift ;;
                esac
                shift
            done
            n=$(($(cat count 2>/dev/null || echo 0) + 1)); echo $n > count
            cat > shown-$n
            printf '%s' "$MENUCTL_PROMPT" > prompt-$n
            printf '%s' "$MENUCTL_ROW" > row-$n
            printf '%s' "$MENUCTL_ROW_TEXT" > rowtext-$n
            answer=$(sed -n "${n}p" answers)
            [ -n "$answer" ] || exit 1
            typed() { if [ $idx = 1 ]; then echo -1; else printf '%s\\n' "$1"; fi; exit 0; }
            case $answer in =*) typed "${answer#=}" ;; esac
            # Like rofi and fuzzel, a line's options after its NUL are not its text.
            tr '\\000' '\\001' < shown-$n | cut -d "$(printf '\\001')" -f1 > lines-$n
            line=$(grep -n -m1 -F -- "$answer" lines-$n) || typed "$answer"
            if [ $idx = 1 ]; then echo $((${line%%:*} - 1)); else printf '%s\\n' "${line#*:}"; fi
            """
        try script.write(toFile: dir.file("launcher.sh"), atomically: true, encoding: .utf8)
        return "cd '\(dir.path)' && sh launcher.sh"
    }

    @Test(arguments: [false, true])
    func groupThenItem(index: Bool) async throws {
        try await withDaemon { daemon throws in
            let launcher = try scriptedLauncher(daemon, answers: ["Applications", "Terminal"], index: index)
            let result = try daemon.menuctl(["pick", "--launcher", launcher] + (index ? ["--index"] : []))
            #expect(result.status == 0, "\(result)")
            #expect(try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\texpanded\t"))
            let shown = try String(contentsOfFile: daemon.directory.file("shown-2"), encoding: .utf8)
            #expect(shown.hasPrefix("▾ Applications\n    Terminal\n"), "the second round shows apps open")
            try await waitUntil("apps/term's command to run") {
                daemon.directory.contains("activated")
            }
        }
    }

    /// rofi and fuzzel read a line's icon after a NUL (`\0icon\x1fNAME`), and are
    /// given each row's; any other launcher gets the lines alone, since it would show
    /// those bytes or cut the line there. The answer is the line without its icon.
    @Test(arguments: ["fuzzel", "rofi", "dmenu", "wofi"])
    func iconsGoToTheLaunchersThatTakeThem(program: String) async throws {
        let menu = """
            menu:
              - id: apps
                title: Applications
                icon: applications-other
                children:
                  - {id: term, title: Terminal, icon: utilities-terminal, exec: touch activated}
            """
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon throws in
                let launcher = try scriptedLauncher(
                    daemon, answers: ["Applications", "Terminal"], index: false)
                let named = daemon.directory.file(program)
                try writeExecutable("#!/bin/sh\n\(launcher)\n", to: named)
                let result = try daemon.menuctl(["pick", "--launcher", "'\(named)' --dmenu"])
                #expect(result.status == 0, "\(result)")
                let shown = try String(contentsOfFile: daemon.directory.file("shown-2"), encoding: .utf8)
                let lines = shown.split(separator: "\n")
                if program == "fuzzel" || program == "rofi" {
                    #expect(
                        lines.contains { $0.hasSuffix("Applications\0icon\u{1f}applications-other") },
                        "\(shown)")
                    #expect(
                        lines.contains { $0.hasSuffix("Terminal\0icon\u{1f}utilities-terminal") }, "\(shown)")
                } else {
                    #expect(!shown.contains("\0"), "\(shown)")
                }
                try await waitUntil("the terminal item to run") { daemon.directory.contains("activated") }
            }
        }
    }

    @Test func optionAndValue() async throws {
        try await withDaemon { daemon throws in
            let pickOption = try scriptedLauncher(daemon, answers: ["Theme", "Light"], index: true)
            #expect(try daemon.menuctl(["pick", "--launcher", pickOption, "--index"]).status == 0)
            #expect(try daemon.menuctl(["--raw", "get", "settings/theme"]).stdout.contains("\tLight\t"))

            try FileManager.default.removeItem(atPath: daemon.directory.file("count"))
            let setValue = try scriptedLauncher(daemon, answers: ["Hostname", "server"], index: false)
            #expect(try daemon.menuctl(["pick", "--launcher", setValue]).status == 0)
            #expect(try daemon.menuctl(["--raw", "get", "settings/hostname"]).stdout.contains("\tserver\t"))
        }
    }

    /// Typed text is matched against titles without case, an exact title first;
    /// text that names no row brings the list back, saying so.
    @Test func typedTextFindsTitlesAndAMissAsksAgain() async throws {
        try await withDaemon { daemon throws in
            let launcher = try scriptedLauncher(
                daemon, answers: ["zzz", "sett", "=SETTINGS", "=theme", "=dark"], index: false)
            let result = try daemon.menuctl(["pick", "--launcher", launcher])
            #expect(result.status == 0, "the option, not Theme: Dark, ends the pick: \(result)")
            let prompt = { (n: Int) in
                try String(contentsOfFile: daemon.directory.file("prompt-\(n)"), encoding: .utf8)
            }
            #expect(try prompt(2) == "no row matches 'zzz'")
            #expect(try prompt(3) == "menu")
            let shown = { (n: Int) in
                try String(contentsOfFile: daemon.directory.file("shown-\(n)"), encoding: .utf8)
            }
            #expect(try shown(2) == (try shown(1)), "the same list again after a miss")
            #expect(try !shown(3).contains("Wi-Fi"), "'sett' closed Settings")
            #expect(try shown(5).contains("● Dark"), "'theme' opened the choice")
            #expect(try daemon.menuctl(["--raw", "get", "settings/theme"]).stdout.contains("\tcollapsed\t"))
        }
    }

    /// --search asks what to look for, then offers what `menuctl find` answers, in its
    /// order; a group chosen there opens and the accordion goes on from it. The query
    /// is typed with the launcher's index option dropped.
    @Test func searchOffersFindsAnswersAndOpensAGroup() async throws {
        try await withDaemon { daemon throws in
            let launcher = try scriptedLauncher(
                daemon, answers: ["=session", "Power › Session", "Lock"], index: false)
            let result = try daemon.menuctl(["pick", "--search", "--launcher", launcher + " --index"])
            #expect(result.status == 0, "\(result)")
            let file = { (name: String) in
                try String(contentsOfFile: daemon.directory.file(name), encoding: .utf8)
            }
            #expect(try file("shown-1") == "", "the query is asked for with no list")
            #expect(try file("prompt-1") == "search")
            #expect(try file("prompt-2") == "search: session")
            let find = try daemon.menuctl(["--json", "find", "session"]).stdout
            let crumbs = try JSONSerialization.jsonObject(with: Data(find.utf8)) as? [[String: Any]] ?? []
            let offered = try file("shown-2").split(separator: "\n").map(String.init)
            #expect(
                offered == crumbs.compactMap { $0["breadcrumbs"] as? String }, "find's answers, in its order")
            #expect(offered.prefix(2) == ["Power › Session", "Power › Session › Lock"], "\(offered)")
            #expect(
                try file("shown-3").contains("  ▾ Session\n      Lock\n"), "then the accordion, Session open")
            #expect(try daemon.focusedPath() == "power/session/lock")

            try FileManager.default.removeItem(atPath: daemon.directory.file("count"))
            let typed = try scriptedLauncher(daemon, answers: ["=wifi", "Wi-Fi"], index: false)
            #expect(try daemon.menuctl(["pick", "--search", "--launcher", typed]).status == 0)
            #expect(try daemon.value(of: "settings/wifi") == "off", "find took 'wifi' for Wi-Fi")
            #expect(try daemon.focusedPath() == "settings/wifi")
        }
    }

    /// Each answer is one line after its groups' titles, whatever a group's title
    /// holds: a newline, NUL, `\x1f`, markup, a bar's tag, `|`, `_`, a comma and
    /// quotes. The line chosen acts on its own node.
    @Test func searchKeepsHostileGroupTitlesOnOneLine() async throws {
        let config = """
            menu:
              - id: evil
                title: "Two\\nlines\\0nul\\x1finfo <b>%{{A1:x:}}</b> | a_b, 'q' \\"dq\\""
                children:
                  - id: wifi
                    title: Wi-Fi
                    type: toggle
                    value: on
                  - id: last
                    title: Last
                    exec: "true"
            """
        try await withConfigFile(config) { config in
            try await withDaemon(config: config) { daemon throws in
                let launcher = try scriptedLauncher(daemon, answers: ["=wi", "Wi-Fi"], index: false)
                let result = try daemon.menuctl(["pick", "--search", "--launcher", launcher + " --index"])
                #expect(result.status == 0, "\(result)")
                let shown = try String(contentsOfFile: daemon.directory.file("shown-2"), encoding: .utf8)
                let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                let evil = "Two lines\u{2400}nul\u{241f}info <b>%{A1:x:}</b> | a_b, 'q' \"dq\""
                #expect(
                    Set(lines) == [
                        Substring(evil), Substring(evil + " › Wi-Fi  [on]"), Substring(evil + " › Last"),
                    ], "\(shown)")
                #expect(try daemon.value(of: "evil/wifi") == "off")
                #expect(try daemon.focusedPath() == "evil/wifi")
            }
        }
    }

    /// A query that matches nothing is asked for again, saying so; the same text again
    /// gives up.
    @Test func searchMissAsksAgain() async throws {
        try await withDaemon { daemon throws in
            let launcher = try scriptedLauncher(
                daemon, answers: ["=zzz", "=hostname", "Hostname", "=server"], index: false)
            #expect(try daemon.menuctl(["pick", "--search", "--launcher", launcher]).status == 0)
            let prompt = try String(contentsOfFile: daemon.directory.file("prompt-2"), encoding: .utf8)
            #expect(prompt == "nothing matches 'zzz'")
            #expect(try daemon.value(of: "settings/hostname") == "server")

            try FileManager.default.removeItem(atPath: daemon.directory.file("count"))
            let stubborn = try scriptedLauncher(daemon, answers: ["=zzz", "=zzz"], index: false)
            let result = try daemon.menuctl(["pick", "--search", "--launcher", stubborn])
            #expect(result.status == 1 && result.stderr.contains("nothing matches 'zzz'"), "\(result)")
        }
    }

    @Test func cancellingExitsOne() async throws {
        try await withDaemon { daemon throws in
            let result = try daemon.menuctl(["pick", "--launcher", "exit 1"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("cancelled"), "\(result)")
        }
    }

    /// A menu whose item "HDMI-1" holds "-1", the answer fuzzel and rofi give for
    /// text that matches no line, and whose Display group is open.
    static let displayMenu = """
        menu:
          - id: display
            title: Display
            expanded: true
            children:
              - id: hdmi
                title: HDMI-1
                exec: "touch hdmi-ran"
          - id: other
            title: Other
            exec: "true"
        """

    /// What the display menu's state is: the focus and whether Display is open.
    private func displayState(_ daemon: TestDaemon) throws -> String {
        try daemon.focusedPath() + " " + daemon.menuctl(["--raw", "get", "display"]).stdout
    }

    /// An index launcher's -1, in each form that makes one, chooses nothing: it is no
    /// typed text, so neither a title nor `find` takes it for HDMI-1.
    @Test(arguments: ["--index", "-format i", "--dmenu --index --prompt x"], [false, true])
    func indexLauncherMissChoosesNothing(form: String, search: Bool) async throws {
        try await withConfigFile(Self.displayMenu) { config in
            try await withDaemon(config: config) { daemon throws in
                let before = try displayState(daemon)
                let launcher =
                    try scriptedLauncher(daemon, answers: ["=hdmi", "=hdmi"], index: false) + " " + form
                let result = try daemon.menuctl(
                    ["pick", "--launcher", launcher] + (search ? ["--search"] : []))
                #expect(result.status == 1, "\(result)")
                #expect(result.stderr.contains("cancelled"), "\(result)")
                #expect(daemon.directory.contains("shown-1"), "the launcher ran")
                #expect(try displayState(daemon) == before, "nothing changed")
                #expect(try daemon.focusedPath() != "display/hdmi")
            }
        }
    }

    /// Whatever an index launcher prints that is no line's index (the rows are
    /// Display, HDMI-1, Other) chooses nothing, in the accordion and in search.
    @Test(arguments: ["-1", "", "3", " 7", "Display", "0x0", "1.0"], [false, true])
    func indexAnswerThatIsNoLineChoosesNothing(answer: String, search: Bool) async throws {
        try await withConfigFile(Self.displayMenu) { config in
            try await withDaemon(config: config) { daemon throws in
                let before = try displayState(daemon)
                let launcher = "cat > /dev/null; printf '%s\\n' '\(answer)'"
                let result = try daemon.menuctl(
                    ["pick", "--index", "--launcher", launcher] + (search ? ["--search"] : []))
                #expect(result.status == 1, "\(result)")
                // Text that is no number is a query, which matches nothing here.
                #expect(
                    result.stderr.contains("cancelled") || result.stderr.contains("nothing matches"),
                    "\(result)")
                #expect(try displayState(daemon) == before, "nothing changed")
            }
        }
    }

    /// bemenu's `--index N` only highlights row N: its answers are text, so typed
    /// text still finds a title.
    @Test func bemenuIndexOptionIsNoIndexLauncher() async throws {
        try await withDaemon { daemon throws in
            let launcher = try scriptedLauncher(daemon, answers: ["=sett"], index: false) + " --index 3"
            let result = try daemon.menuctl(["pick", "--launcher", launcher])
            #expect(result.status == 1, "cancelled on the second round: \(result)")
            let prompt = try String(contentsOfFile: daemon.directory.file("prompt-2"), encoding: .utf8)
            #expect(prompt == "menu", "'sett' found Settings")
            #expect(try daemon.menuctl(["--raw", "get", "settings"]).stdout.contains("\tcollapsed\t"))
        }
    }

    /// A value prompt runs the launcher without its index option, which would turn
    /// the value typed into -1.
    @Test(arguments: ["--index", "-format i"])
    func valuePromptDropsTheIndexOption(form: String) async throws {
        try await withDaemon { daemon throws in
            let launcher =
                try scriptedLauncher(daemon, answers: ["Hostname", "=server"], index: false) + " " + form
            let result = try daemon.menuctl(["pick", "--launcher", launcher])
            #expect(result.status == 0, "\(result)")
            #expect(try daemon.value(of: "settings/hostname") == "server")
        }
    }

    /// With `pick --index` there is no option to drop: the value offered is 0, and
    /// -1 sets nothing and brings the list back.
    @Test func valuePromptOfADeclaredIndexLauncher() async throws {
        try await withDaemon { daemon throws in
            let typed = try scriptedLauncher(daemon, answers: ["Hostname", "=server"], index: true)
            let result = try daemon.menuctl(["pick", "--index", "--launcher", typed])
            #expect(result.status == 1, "cancelled on the third round: \(result)")
            #expect(try String(contentsOfFile: daemon.directory.file("prompt-3"), encoding: .utf8) == "menu")
            #expect(try daemon.value(of: "settings/hostname") == "workstation")

            try FileManager.default.removeItem(atPath: daemon.directory.file("count"))
            let offered = try scriptedLauncher(daemon, answers: ["Hostname", "workstation"], index: true)
            let kept = try daemon.menuctl(["pick", "--index", "--launcher", offered])
            #expect(kept.status == 0, "\(kept)")
            #expect(try daemon.value(of: "settings/hostname") == "workstation", "0 is the value offered")
        }
    }

    /// The launcher is told the row to highlight: at first the focused one, then
    /// the one last chosen, where it stands once a group has opened; in a value
    /// prompt, the value offered.
    @Test func theLauncherIsToldTheRowToHighlight() async throws {
        try await withDaemon { daemon throws in
            #expect(try daemon.menuctl(["focus", "settings/wifi"]).status == 0)
            let launcher = try scriptedLauncher(
                daemon, answers: ["Power", "Session", "=zzz", "Hostname", "=server"], index: false)
            let result = try daemon.menuctl(["pick", "--launcher", launcher])
            #expect(result.status == 0, "\(result)")
            let file = { (name: String) in
                try String(contentsOfFile: daemon.directory.file(name), encoding: .utf8)
            }
            /// The index of the line starting with `text` (after its indentation) in round `n`.
            func index(of text: String, round n: Int) throws -> String? {
                let lines = try file("shown-\(n)").split(separator: "\n", omittingEmptySubsequences: false)
                return lines.firstIndex { $0.drop { $0 == " " }.hasPrefix(text) }.map(String.init)
            }
            #expect(try file("row-1") == index(of: "Wi-Fi", round: 1), "the focused row")
            #expect(try file("row-1") != "0")
            #expect(try file("row-2") == index(of: "▾ Power", round: 2), "Power, just opened")
            #expect(try file("row-2") != "0")
            #expect(try file("rowtext-2") == "▾ Power")
            #expect(try file("row-3") == index(of: "▾ Session", round: 3))
            #expect(try file("rowtext-3") == "  ▾ Session")
            #expect(try file("row-4") == file("row-3"), "a miss keeps the row")
            #expect(try file("row-5") == "0")
            #expect(try file("rowtext-5") == "workstation", "the value offered")
        }
    }

    /// A launcher that shows until it is killed: it starts a grandchild (`sleep`, in
    /// the background), saves its own pid and the grandchild's, and waits.
    private func showingLauncher(_ daemon: TestDaemon) throws -> String {
        let script = """
            cat > /dev/null
            sleep 1000 > /dev/null 2>&1 &
            echo $! > grandchild.tmp && mv grandchild.tmp grandchild
            echo $$ > launcher.tmp && mv launcher.tmp launcher
            wait
            """
        try script.write(toFile: daemon.directory.file("showing.sh"), atomically: true, encoding: .utf8)
        return "cd '\(daemon.directory.path)' && sh showing.sh"
    }

    /// `menuctl pick` in the background, against `daemon`.
    private func startPick(_ daemon: TestDaemon, _ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(
            TestPaths.menuctl, ["--socket", daemon.socketPath, "pick"] + arguments,
            environment: ProcessInfo.processInfo.environment, log: daemon.directory.file("pick.log"))
    }

    /// A signal that ends pick ends its launcher too: the launcher's shell, what it
    /// started and their children, which lead no group of pick's.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func killingPickEndsTheLauncher(signal: Int32) async throws {
        try await withDaemon { daemon in
            let pick = try startPick(daemon, ["--launcher", try showingLauncher(daemon)])
            defer { pick.killAndReap(group: true) }
            try await pick.waitWhileRunning("the launcher to show") { daemon.directory.contains("launcher") }
            let pid = { (name: String) in
                Int32(
                    try String(contentsOfFile: daemon.directory.file(name), encoding: .utf8)
                        .trimmingCharacters(in: .whitespacesAndNewlines))!
            }
            let launcher = try pid("launcher")
            let grandchild = try pid("grandchild")
            let group = try #require(ProcessEntry.all().first { $0.pid == launcher }?.group)
            defer { if group > 1 { kill(-group, SIGKILL) } }
            #expect(group != pick.pid, "the launcher leads a group of its own")
            #expect(ProcessEntry.all().first { $0.pid == grandchild }?.group == group)

            kill(pick.pid, signal)
            try await waitUntil("pick to end") { !pick.isRunning }
            #expect(pick.ending == "was killed by signal \(signal)", "\(pick.log)")
            try await waitUntil("the launcher's processes to end") {
                livingProcesses(inGroup: group).isEmpty
            }
            #expect(!ProcessEntry.all().contains { $0.isLiving && [launcher, grandchild].contains($0.pid) })
        }
    }

    /// Run from a terminal (`script` gives pick one, as its foreground process
    /// group), pick hands the terminal's foreground to the launcher while it shows:
    /// a terminal launcher can then read the terminal (from the background it would
    /// be stopped), and Ctrl-C reaches the launcher, which pick takes as a cancel.
    @Test(.enabled(if: XTools.shouldRun(["script"])))
    func aTerminalLauncherHasTheForeground() async throws {
        try XTools.require(["script"])
        try await withDaemon { daemon in
            let dir = daemon.directory
            let launcher = """
                cat > /dev/null
                set -- $(sed 's/^.*) //' /proc/$$/stat)
                if [ "$3" = "$6" ]; then echo foreground; else echo background; fi > terminal.tmp
                mv terminal.tmp terminal
                read answer < /dev/tty
                printf '%s\\n' "$answer"
                """
            try launcher.write(toFile: dir.file("tty.sh"), atomically: true, encoding: .utf8)
            try #"exec "$MENUCTL" --socket "$SOCKET" pick --launcher "cd '$DIR' && sh tty.sh""#.write(
                toFile: dir.file("run-pick.sh"), atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            environment["MENUCTL"] = TestPaths.menuctl
            environment["SOCKET"] = daemon.socketPath
            environment["DIR"] = dir.path

            /// pick in `script`'s terminal, typed at once the launcher shows; its exit status.
            func pickInATerminal(typing keys: String) async throws -> Int32? {
                try? FileManager.default.removeItem(atPath: dir.file("terminal"))
                let input = try ProgramSpawn.pipe()
                let log = open(dir.file("script.log"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                defer { close(log) }
                let pid = try ProgramSpawn.start(
                    "script", ["-qec", "sh '\(dir.file("run-pick.sh"))'", "/dev/null"],
                    environment: environment, input: input.read, output: log, error: log)
                close(input.read)
                defer {
                    close(input.write)
                    if ProgramSpawn.reaped(pid) == nil {
                        kill(-pid, SIGKILL)
                        _ = ProgramSpawn.reap(pid)
                    }
                }
                var status: Int32?
                let ended = { () -> Bool in
                    if status == nil { status = ProgramSpawn.reaped(pid) }
                    return status != nil
                }
                try await waitUntil("the launcher to show") {
                    #expect(!ended(), "script ended early")
                    return status != nil || dir.contains("terminal")
                }
                #expect(try String(contentsOfFile: dir.file("terminal"), encoding: .utf8) == "foreground\n")
                _ = keys.utf8.withContiguousStorageIfAvailable {
                    write(input.write, $0.baseAddress, $0.count)
                }
                try await waitUntil("pick to end") { ended() }
                return status.flatMap(ProgramSpawn.exitCode)
            }

            #expect(try await pickInATerminal(typing: "wi-fi\n") == 0)
            #expect(try daemon.value(of: "settings/wifi") == "off", "the launcher read the terminal")
            #expect(try await pickInATerminal(typing: "\u{3}") == 1, "Ctrl-C ended the launcher, a cancel")
            #expect(try daemon.value(of: "settings/wifi") == "off")
        }
    }

    static let programs = ["Xvfb", "rofi", "xdotool"]

    @Test(.enabled(if: XTools.shouldRun(programs)))
    func throughRofiDmenu() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let pick = try x.start(
                    TestPaths.menuctl,
                    // rofi allows one instance per pid file; its own keeps parallel tests apart.
                    [
                        "pick", "--launcher",
                        "rofi -dmenu -pid '\(x.directory.file("rofi.pid"))' -format i -p \"$MENUCTL_PROMPT\"",
                    ],
                    environment: x.environment(daemon))
                var windows = try await x.waitForWindow(class: "rofi", from: pick)
                try x.type("Power")
                try await waitUntil("pick to open power; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "power"]).stdout.contains("\texpanded\t")
                }
                windows = try await x.waitForWindow(class: "rofi", from: pick, other: windows)
                try x.type("Session")
                try await waitUntil("pick to open power/session; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "power/session"]).stdout.contains("\texpanded\t")
                }
                windows = try await x.waitForWindow(class: "rofi", from: pick, other: windows)
                try x.screenshot("pick-rofi-dmenu")
                try x.type("Lock")
                try await waitUntil("pick to end after activating power/session/lock") { !pick.isRunning }
                #expect(pick.exitStatus == 0, "\(pick.log)")
                #expect(
                    try daemon.menuctl(["--raw", "focused"]).stdout == "focus\tpower\tpower/session/lock\n")
            }
        }
    }

    /// rofi -dmenu -format i prints -1 for text that matches no line: pick ends and
    /// changes nothing. A value prompt runs rofi without `-format i`, so the value
    /// typed comes back as text.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func rofiIndexMissChoosesNothingAndValuesAreTyped() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let launcher =
                    "rofi -dmenu -pid '\(x.directory.file("rofi.pid"))' -format i -p \"$MENUCTL_PROMPT\""
                let before = try daemon.focusedPath()
                let miss = try x.start(
                    TestPaths.menuctl, ["pick", "--search", "--launcher", launcher],
                    environment: x.environment(daemon))
                var windows = try await x.waitForWindow(class: "rofi", from: miss)
                // The query is typed (rofi runs without -format i), then the answers'
                // rofi prints -1 for text that matches none of them.
                try x.type("lock")
                windows = try await x.waitForWindow(class: "rofi", from: miss, other: windows)
                try x.type("zzz")
                try await waitUntil("pick to end after rofi's -1; log: \(miss.log)") { !miss.isRunning }
                #expect(miss.exitStatus == 1, "\(miss.log)")
                #expect(miss.log.contains("no line chosen"), "rofi answered, with -1: \(miss.log)")
                #expect(try daemon.focusedPath() == before)

                let value = try x.start(
                    TestPaths.menuctl, ["pick", "--launcher", launcher], environment: x.environment(daemon))
                windows = try await x.waitForWindow(class: "rofi", from: value, other: windows)
                try x.type("Hostname")
                _ = try await x.waitForWindow(class: "rofi", from: value, other: windows)
                try x.type("server")
                try await waitUntil("pick to end after setting the hostname; log: \(value.log)") {
                    !value.isRunning
                }
                #expect(value.exitStatus == 0, "\(value.log)")
                #expect(try daemon.value(of: "settings/hostname") == "server")
            }
        }
    }

    /// With `-selected-row "$MENUCTL_ROW"` rofi highlights the group just opened:
    /// Return at once chooses it again and closes it, where rofi's first row
    /// (Applications) would have opened.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func rofiHighlightsTheRowLastChosen() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let launcher = """
                    rofi -dmenu -pid '\(x.directory.file("rofi.pid"))' -format i \
                    -selected-row "$MENUCTL_ROW" -p "$MENUCTL_PROMPT"
                    """
                let pick = try x.start(
                    TestPaths.menuctl, ["pick", "--launcher", launcher], environment: x.environment(daemon))
                var windows = try await x.waitForWindow(class: "rofi", from: pick)
                try x.type("Power")
                try await waitUntil("pick to open power; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "power"]).stdout.contains("\texpanded\t")
                }
                windows = try await x.waitForWindow(class: "rofi", from: pick, other: windows)
                _ = try x.run("xdotool", ["key", "Return"])
                try await waitUntil("Return to close power again; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "power"]).stdout.contains("\tcollapsed\t")
                }
                #expect(try daemon.menuctl(["--raw", "get", "apps"]).stdout.contains("\tcollapsed\t"))
                _ = try await x.waitForWindow(class: "rofi", from: pick, other: windows)
                _ = try x.run("xdotool", ["key", "Escape"])
                try await waitUntil("Escape to end pick") { !pick.isRunning }
                #expect(pick.exitStatus == 1, "\(pick.log)")
            }
        }
    }

    /// pick --search through rofi -dmenu, typed at: a group found by its title opens
    /// and the accordion goes on there; a toggle found flips and ends the pick.
    @Test(.enabled(if: XTools.shouldRun(programs)))
    func searchThroughRofiDmenu() async throws {
        try XTools.require(Self.programs)
        try await withDaemon { daemon in
            try await withXSession { x in
                let launcher =
                    "rofi -dmenu -pid '\(x.directory.file("rofi.pid"))' -format i -p \"$MENUCTL_PROMPT\""
                let pick = try x.start(
                    TestPaths.menuctl, ["pick", "--search", "--launcher", launcher],
                    environment: x.environment(daemon))
                var windows = try await x.waitForWindow(class: "rofi", from: pick)
                try x.type("session")
                windows = try await x.waitForWindow(class: "rofi", from: pick, other: windows)
                try x.screenshot("pick-search-rofi-dmenu")
                // find puts "Power › Session" before "Power › Session › Lock", and rofi
                // highlights the first match.
                try x.type("Session")
                try await waitUntil("pick to open power/session; log: \(pick.log)") {
                    try daemon.menuctl(["--raw", "get", "power/session"]).stdout.contains("\texpanded\t")
                }
                windows = try await x.waitForWindow(class: "rofi", from: pick, other: windows)
                try x.type("Lock")
                try await waitUntil("pick to end after activating power/session/lock") { !pick.isRunning }
                #expect(pick.exitStatus == 0, "\(pick.log)")
                #expect(try daemon.focusedPath() == "power/session/lock")

                let flip = try x.start(
                    TestPaths.menuctl, ["pick", "--search", "--launcher", launcher],
                    environment: x.environment(daemon))
                windows = try await x.waitForWindow(class: "rofi", from: flip, other: windows)
                try x.type("wifi")
                _ = try await x.waitForWindow(class: "rofi", from: flip, other: windows)
                try x.type("Wi-Fi")
                try await waitUntil("pick to end after flipping Wi-Fi; log: \(flip.log)") { !flip.isRunning }
                #expect(flip.exitStatus == 0, "\(flip.log)")
                #expect(try daemon.value(of: "settings/wifi") == "off")
            }
        }
    }
}
