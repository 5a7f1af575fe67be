import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `children-from: applications` against Fixtures/applications.yaml, with a daemon
/// whose XDG data directories are the test's: `home/applications` (its
/// `XDG_DATA_HOME`'s) and `system/applications` (its `XDG_DATA_DIRS`).
@Suite(.ownThread) struct ApplicationsMenuTests {
    /// The test's directories and the daemon's environment.
    struct Desktop {
        let directory: TempDirectory
        var home: String { directory.file("home/applications") }
        var system: String { directory.file("system/applications") }

        init() throws {
            directory = try TempDirectory()
            for path in [home, system] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
        }

        /// No session bus: `XDG_RUNTIME_DIR` is the test's, where no bus listens.
        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            var environment = [
                "HOME": directory.path, "XDG_DATA_HOME": directory.file("home"),
                "XDG_DATA_DIRS": directory.file("system"), "XDG_RUNTIME_DIR": directory.path,
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
            ]
            environment.merge(extra) { $1 }
            return environment
        }

        /// Writes an entry whole, as a package manager installs it: under another name
        /// first, then renamed into place.
        func install(_ text: String, as name: String, in applications: String) throws {
            let temporary = applications + "/." + name + ".part"
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            #expect(rename(temporary, applications + "/" + name) == 0)
        }

        /// A program that writes its arguments, one a line, to `NAME.out`.
        func argumentWriter(_ name: String) throws -> String {
            let path = directory.file(name)
            try writeExecutable(
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"\(path).out.part\"\nmv \"\(path).out.part\" \"\(path).out\"\n",
                to: path)
            return path
        }

        func written(_ name: String) -> [String]? {
            (try? String(contentsOfFile: directory.file(name + ".out"), encoding: .utf8))
                .map {
                    $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
                }
        }
    }

    static func entry(_ name: String, exec: String = "true", _ extra: [String] = []) -> String {
        (["[Desktop Entry]", "Type=Application", "Name=\(name)", "Exec=\(exec)"] + extra).joined(
            separator: "\n")
            + "\n"
    }

    func withApplications(
        _ desktop: Desktop, environment: [String: String] = [:], _ body: (TestDaemon) async throws -> Void
    ) async throws {
        try await withDaemon(
            config: TestPaths.fixture("applications.yaml"), directory: desktop.directory,
            environment: desktop.environment(environment), body)
    }

    /// The rows below `apps`, every group open, as `path title`.
    func rows(_ daemon: TestDaemon) throws -> [String] {
        let reply = try daemon.request("rows apps")
        return reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
            .filter { $0.path.hasPrefix("apps/") }.map { "\($0.path) \($0.title)" }
    }

    /// Opens `apps` and every group below it, with the real menuctl.
    func openAll(_ daemon: TestDaemon) throws {
        #expect(try daemon.menuctl(["expand", "--recursive", "apps"]).status == 0)
    }

    /// ``rows(_:)`` once every group below `apps` is open: a category that a scan
    /// brings starts closed.
    func openRows(_ daemon: TestDaemon) throws -> [String] {
        try openAll(daemon)
        return try rows(daemon)
    }

    @Test func categoriesAndApplicationsAreShownSorted() async throws {
        let desktop = try Desktop()
        try Self.entry("zeta Browser", ["Categories=Network;WebBrowser;", "Comment=Browse"])
            .write(toFile: desktop.system + "/zeta.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Alpha Mail", ["Categories=Network;Email;", "Icon=mail"])
            .write(toFile: desktop.system + "/alpha.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Calculator", ["Categories=Utility;"])
            .write(toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Mystery {value}", ["Categories=X-Custom;"])
            .write(toFile: desktop.home + "/mystery.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Invisible", ["NoDisplay=true", "Categories=Utility;"])
            .write(toFile: desktop.system + "/invisible.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Elsewhere", ["OnlyShowIn=KDE;"])
            .write(toFile: desktop.system + "/kde.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Missing", ["TryExec=no-such-program-here"])
            .write(toFile: desktop.system + "/missing.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 7 }
            #expect(
                try rows(daemon) == [
                    "apps/utility Accessories", "apps/utility/calc Calculator", "apps/network Internet",
                    "apps/network/alpha Alpha Mail", "apps/network/zeta zeta Browser", "apps/other Other",
                    "apps/other/mystery Mystery {value}",
                ])
            let shown = try daemon.menuctl(["rows", "apps"]).stdout
            #expect(shown.contains("Mystery {value}"))
            let zeta = try daemon.request("rows apps").lines.compactMap {
                RowRecord(fields: ProtocolFields.fields(of: $0))
            }.first { $0.path == "apps/network/zeta" }
            #expect(zeta?.subtitle == "Browse")
            #expect(zeta?.icon == "")
            let alpha = try daemon.request("rows apps").lines.compactMap {
                RowRecord(fields: ProtocolFields.fields(of: $0))
            }.first { $0.path == "apps/network/alpha" }
            #expect(alpha?.icon == "mail")
        }
    }

    /// The daemon's own environment decides: `LC_MESSAGES` before `LANG` picks the
    /// translation (the territory's first, then the language's), the subtitle is the
    /// translated `Comment` or else `GenericName`, and `XDG_CURRENT_DESKTOP` is what
    /// `OnlyShowIn` and `NotShowIn` are read against. Names sort as translated.
    @Test func textIsInTheUsersLanguageAndEntriesFollowTheirDesktop() async throws {
        let desktop = try Desktop()
        try Self.entry(
            "Files",
            [
                "Name[fr]=Fichiers", "Name[fr_CA]=Fichiers (Canada)", "Name[de]=Dateien",
                "Comment=Browse files", "Comment[fr]=Parcourir les fichiers", "OnlyShowIn=GNOME;",
            ]
        ).write(toFile: desktop.system + "/files.desktop", atomically: false, encoding: .utf8)
        try Self.entry(
            "Editor", ["Name[fr]=Éditeur", "GenericName=Text Editor", "GenericName[fr]=Éditeur de texte"]
        )
        .write(toFile: desktop.system + "/editor.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Settings", ["NotShowIn=GNOME;"])
            .write(toFile: desktop.system + "/settings.desktop", atomically: false, encoding: .utf8)
        let environment = [
            "LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_CA.UTF-8", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME",
        ]
        try await withApplications(desktop, environment: environment) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 3 }
            #expect(
                try rows(daemon) == [
                    "apps/other Other", "apps/other/editor Éditeur", "apps/other/files Fichiers (Canada)",
                ])
            let shown = try daemon.request("rows apps").lines.compactMap {
                RowRecord(fields: ProtocolFields.fields(of: $0))
            }
            #expect(shown.first { $0.path == "apps/other/files" }?.subtitle == "Parcourir les fichiers")
            #expect(shown.first { $0.path == "apps/other/editor" }?.subtitle == "Éditeur de texte")
        }
    }

    @Test func anEntryInTheUsersDirectoryOverridesTheSystemsOfTheSameID() async throws {
        let desktop = try Desktop()
        try Self.entry("System Editor").write(
            toFile: desktop.system + "/editor.desktop", atomically: false, encoding: .utf8)
        try Self.entry("My Editor").write(
            toFile: desktop.home + "/editor.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Gone").write(
            toFile: desktop.system + "/gone.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Gone", ["Hidden=true"]).write(
            toFile: desktop.home + "/gone.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            #expect(try rows(daemon) == ["apps/other Other", "apps/other/editor My Editor"])
        }
    }

    @Test func activatingRunsTheProgramWithItsArgumentsAndNeverAShell() async throws {
        let desktop = try Desktop()
        let program = try desktop.argumentWriter("app")
        let pwned = desktop.directory.file("pwned")
        try Self.entry(
            "Writer", exec: #""\#(program)" one "two words" $(touch \#(pwned)) "\\$HOME" %U %i %c"#,
            ["Icon=writer-icon"]
        ).write(toFile: desktop.system + "/writer.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the application; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            let reply = try daemon.request("activate apps/other/writer")
            #expect(reply.isOK)
            let ran = reply.lines.map { ProtocolFields.fields(of: $0) }.first { $0.first == "ran" }
            #expect(ran.map { Int($0[1]) != nil } == true, "\(reply.lines)")
            try await waitUntil("the program to write its arguments; log:\n\(daemon.log)") {
                desktop.written("app") != nil
            }
            #expect(
                desktop.written("app") == [
                    "one", "two words", "$(touch", "\(pwned))", "$HOME", "--icon", "writer-icon", "Writer",
                ])
            #expect(!FileManager.default.fileExists(atPath: pwned))
            // Reaped, as an item's exec is: a zombie would keep /proc/PID.
            if let pid = ran.flatMap({ Int32($0[1]) }) {
                try await waitUntil("menud to reap pid \(pid)") {
                    !FileManager.default.fileExists(atPath: "/proc/\(pid)")
                }
            }
            #expect(zombieChildren(of: daemon.pid).isEmpty)
            // The real menuctl says what it started.
            let started = try daemon.menuctl(["activate", "apps/other/writer"])
            #expect(started.status == 0)
            #expect(started.stdout.contains("Started Writer (pid "), "\(started.stdout)")
        }
    }

    @Test func aTerminalApplicationRunsInTheUsersTerminal() async throws {
        let desktop = try Desktop()
        let terminal = try desktop.argumentWriter("terminal")
        try Self.entry("Top", exec: "top -d 5", ["Terminal=true"])
            .write(toFile: desktop.system + "/top.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop, environment: ["TERMINAL": terminal]) { daemon in
            try await waitUntil("the application; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            #expect(try daemon.menuctl(["activate", "apps/other/top"]).status == 0)
            try await waitUntil("the terminal to start; log:\n\(daemon.log)") {
                desktop.written("terminal") != nil
            }
            #expect(desktop.written("terminal") == ["-e", "top", "-d", "5"])
        }
    }

    /// Without `$TERMINAL`, or with it empty, the terminal is `x-terminal-emulator`,
    /// looked up in `PATH`.
    @Test func aTerminalApplicationWithoutTERMINALRunsXTerminalEmulator() async throws {
        let desktop = try Desktop()
        _ = try desktop.argumentWriter("x-terminal-emulator")
        try Self.entry("Top", exec: "top -d 5", ["Terminal=true"])
            .write(toFile: desktop.system + "/top.desktop", atomically: false, encoding: .utf8)
        let path =
            desktop.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        try await withApplications(desktop, environment: ["PATH": path, "TERMINAL": ""]) { daemon in
            try await waitUntil("the application; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            let activated = try daemon.menuctl(["activate", "apps/other/top"])
            #expect(activated.status == 0, "\(activated)")
            try await waitUntil("the terminal to start; log:\n\(daemon.log)") {
                desktop.written("x-terminal-emulator") != nil
            }
            #expect(desktop.written("x-terminal-emulator") == ["-e", "top", "-d", "5"])
        }
    }

    @Test func actionsAreAGroupWhoseFirstChildOpensTheApplication() async throws {
        let desktop = try Desktop()
        let program = try desktop.argumentWriter("web")
        try
            (Self.entry("Web", exec: "\(program) main", ["Actions=private;"])
            + "[Desktop Action private]\nName=Private Window\nExec=\(program) --private\n")
            .write(toFile: desktop.system + "/web.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the application; log:\n\(daemon.log)") { try openRows(daemon).count == 4 }
            #expect(
                try rows(daemon) == [
                    "apps/other Other", "apps/other/web Web", "apps/other/web/open Open",
                    "apps/other/web/private Private Window",
                ])
            #expect(try daemon.menuctl(["activate", "apps/other/web/private"]).status == 0)
            try await waitUntil("the action to start; log:\n\(daemon.log)") { desktop.written("web") != nil }
            #expect(desktop.written("web") == ["--private"])
        }
    }

    @Test func aDBusApplicationWithoutABusStartsFromItsExec() async throws {
        let desktop = try Desktop()
        let program = try desktop.argumentWriter("dbus-app")
        try Self.entry("Bus App", exec: "\(program) fallback", ["DBusActivatable=true"])
            .write(toFile: desktop.system + "/org.example.BusApp.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the application; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            #expect(try daemon.menuctl(["activate", "apps/other/org.example.BusApp"]).status == 0)
            try await waitUntil("the fallback to start; log:\n\(daemon.log)") {
                desktop.written("dbus-app") != nil
            }
            #expect(desktop.written("dbus-app") == ["fallback"])
            #expect(daemon.log.contains("no session bus"))
        }
    }

    /// An application that only D-Bus starts (no `Exec`) cannot start without a bus:
    /// the activation fails and says why, and the menu is as it was.
    @Test func aDBusOnlyApplicationWithoutABusCannotStart() async throws {
        let desktop = try Desktop()
        try "[Desktop Entry]\nType=Application\nName=Bus Only\nDBusActivatable=true\n"
            .write(
                toFile: desktop.system + "/org.example.BusOnly.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the application; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            let reply = try daemon.request("activate apps/other/org.example.BusOnly")
            #expect(reply.errorCode == "activation-failed", "\(reply)")
            #expect(
                reply.errorMessage?.contains("Bus Only is started only over D-Bus, and there is no bus")
                    == true,
                "\(reply)")
            #expect(try rows(daemon) == ["apps/other Other", "apps/other/org.example.BusOnly Bus Only"])
        }
    }

    /// On a session bus, the application is activated there: the bus carries
    /// `org.freedesktop.Application.Activate` to its name. No service has that name
    /// here, so the bus refuses it, and the entry's `Exec` runs instead.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func aDBusApplicationIsActivatedOnTheSessionBus() async throws {
        let desktop = try Desktop()
        let program = try desktop.argumentWriter("dbus-app")
        try Self.entry("Bus App", exec: "\(program) fallback", ["DBusActivatable=true"])
            .write(
                toFile: desktop.system + "/org.example.Bus-App.desktop", atomically: false, encoding: .utf8)
        try await withSessionBus { bus in
            let monitor = try await bus.monitor(
                match: "type='method_call',interface='org.freedesktop.Application'")
            try await withCleanup(
                {
                    try await withApplications(
                        desktop, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]
                    ) {
                        daemon in
                        try await waitUntil("the application; log:\n\(daemon.log)") {
                            try openRows(daemon).count == 2
                        }
                        let reply = try daemon.request("activate apps/other/org.example.Bus-App")
                        let ran = reply.lines.map { ProtocolFields.fields(of: $0) }.first {
                            $0.first == "ran"
                        }
                        #expect(
                            ran == ["ran", "-", "D-Bus activation of org.example.Bus-App"], "\(reply.lines)")
                        try await waitUntil("the Activate call on the bus; log:\n\(monitor.log)") {
                            monitor.log.contains("\"Activate\"")
                                && monitor.log.contains("org.example.Bus-App")
                        }
                        #expect(monitor.log.contains("/org/example/Bus_App"), "\(monitor.log)")
                        try await waitUntil("the fallback to start; log:\n\(daemon.log)") {
                            desktop.written("dbus-app") != nil
                        }
                        #expect(desktop.written("dbus-app") == ["fallback"])
                    }
                }, cleanup: { await monitor.stop() })
        }
    }

    @Test func installingAnEntrySplicesItsRowAndRemovingItRemovesIt() async throws {
        let desktop = try Desktop()
        try Self.entry("Calculator", ["Categories=Utility;"])
            .write(toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            let events = try daemon.connect()
            try events.subscribe("expansion")

            try desktop.install(
                Self.entry("Clock", ["Categories=Utility;"]), as: "clock.desktop", in: desktop.home)
            try await waitUntil("the new entry's row; log:\n\(daemon.log)") {
                try openRows(daemon).count == 3
            }
            #expect(
                try rows(daemon) == [
                    "apps/utility Accessories", "apps/utility/calc Calculator", "apps/utility/clock Clock",
                ])
            // Subscribers see the row come as a splice.
            let group = try events.readEventGroup()
            let splices = group.records.filter { $0.hasPrefix("splice\t") }.map { $0.split(separator: "\t") }
            #expect(splices.count == 1 && splices.first?[2] == "0" && splices.first?[3] == "1", "\(group)")

            // Removing it takes its row away as a splice too, and only its row.
            #expect(unlink(desktop.home + "/clock.desktop") == 0)
            try await waitUntil("the removed entry's row to go; log:\n\(daemon.log)") {
                try !rows(daemon).contains("apps/utility/clock Clock")
            }
            #expect(try rows(daemon) == ["apps/utility Accessories", "apps/utility/calc Calculator"])
            let removal = try events.readEventGroup()
            let gone = removal.records.filter { $0.hasPrefix("splice\t") }.map { $0.split(separator: "\t") }
            #expect(gone.count == 1 && gone.first?[2] == "1" && gone.first?[3] == "0", "\(removal)")

            // A new directory's entries are found too, and then watched.
            try FileManager.default.createDirectory(
                atPath: desktop.home + "/games", withIntermediateDirectories: false)
            try desktop.install(
                Self.entry("Chess", ["Categories=Game;"]), as: "chess.desktop", in: desktop.home + "/games")
            try await waitUntil("the entry in a new directory; log:\n\(daemon.log)") {
                try openRows(daemon).contains("apps/game/games-chess Chess")
            }

            #expect(unlink(desktop.home + "/games/chess.desktop") == 0)
            try await waitUntil("the category to go with its last entry; log:\n\(daemon.log)") {
                try !rows(daemon).contains { $0.hasPrefix("apps/game") }
            }
        }
    }

    /// An entry rewritten a hundred times a second never lets its events pause: an
    /// entry installed meanwhile still comes, a scan being due at the latest a
    /// second after a burst began.
    @Test func anEntryComesWhileAnotherIsRewrittenWithoutPause() async throws {
        let desktop = try Desktop()
        try Self.entry("Calculator", ["Categories=Utility;"])
            .write(toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            let entry = Self.entry("Busy", ["Categories=Utility;"])
            let writer = try BackgroundProcess(
                "/bin/sh",
                [
                    "-c",
                    "while :; do printf '%s' \"$1\" > \"$2/busy.desktop\"; sleep 0.01; done", "sh", entry,
                    desktop.home,
                ], environment: desktop.environment(), log: desktop.directory.file("writer.log"))
            try await withCleanup(
                {
                    try await waitUntil("the rewritten entry's row; log:\n\(daemon.log)") {
                        try openRows(daemon).contains("apps/utility/busy Busy")
                    }
                    try desktop.install(
                        Self.entry("Clock", ["Categories=Utility;"]), as: "clock.desktop", in: desktop.system)
                    try await waitUntil("the entry installed while another is rewritten; log:\n\(daemon.log)")
                    {
                        try openRows(daemon).contains("apps/utility/clock Clock")
                    }
                    #expect(writer.isRunning, "the writer kept writing: \(writer.log)")
                }, cleanup: { await writer.stop() })
        }
    }

    /// A top-level `applications` folder that is deleted and made again is followed
    /// again: its parent is watched while it is missing, and so is the nearest folder
    /// there of one that has never been.
    @Test func aDeletedApplicationsFolderMadeAgainIsFollowed() async throws {
        let desktop = try Desktop()
        try Self.entry("Calculator", ["Categories=Utility;"])
            .write(toFile: desktop.home + "/calc.desktop", atomically: false, encoding: .utf8)
        let never = desktop.directory.file("never/share")
        try await withApplications(
            desktop, environment: ["XDG_DATA_DIRS": desktop.directory.file("system") + ":" + never]
        ) {
            daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            try FileManager.default.removeItem(atPath: desktop.home)
            try await waitUntil("the deleted folder's entry to go; log:\n\(daemon.log)") {
                try openRows(daemon).isEmpty
            }
            try FileManager.default.createDirectory(atPath: desktop.home, withIntermediateDirectories: false)
            try desktop.install(
                Self.entry("Clock", ["Categories=Utility;"]), as: "clock.desktop", in: desktop.home)
            try await waitUntil("the entry in the folder made again; log:\n\(daemon.log)") {
                try openRows(daemon).contains("apps/utility/clock Clock")
            }
            // `never` has no folder on its way: made with its applications at once.
            try FileManager.default.createDirectory(
                atPath: never + "/applications", withIntermediateDirectories: true)
            try desktop.install(
                Self.entry("Chess", ["Categories=Game;"]), as: "chess.desktop", in: never + "/applications")
            try await waitUntil("the entry in a folder that was never there; log:\n\(daemon.log)") {
                try openRows(daemon).contains("apps/game/chess Chess")
            }
        }
    }

    /// The daemon's threads' context switches while `body` runs and `window` after it,
    /// main thread and the rest apart, counted from when it has gone half a second
    /// without one (its start, the first scan and the rows asked for are over).
    private func switches(
        of daemon: TestDaemon, over window: Duration = .zero, during body: () async throws -> Void = {}
    ) async throws -> (main: Int, others: Int) {
        try await waitUntil("menud to go half a second without a context switch") {
            let before = ThreadSwitches(of: daemon.pid)
            usleep(500_000)
            return before.added(by: ThreadSwitches(of: daemon.pid)) == 0
        }
        let before = ThreadSwitches(of: daemon.pid)
        try await body()
        try await Task.sleep(for: window)
        let after = ThreadSwitches(of: daemon.pid)
        let main = (after.threads[daemon.pid] ?? 0) - (before.threads[daemon.pid] ?? 0)
        return (main, before.added(by: after) - main)
    }

    /// The directories are read again only when an entry in them changes: while none
    /// does, the daemon does not wake at all, and a file beside the entries that is no
    /// entry (update-desktop-database's `mimeinfo.cache`) wakes the loop for its
    /// event but starts no scan, which runs on a pool thread. Installing an entry does
    /// start one, which shows that a scan is seen where there is one. No time is
    /// asserted: the windows only bound how long the switches are counted.
    @Test(
        .disabled(
            if: SanitizerReport.isThreadSanitizedRun,
            "ThreadSanitizer's runtime wakes a thread of its own in the daemon every 100 ms"))
    func nothingIsReadAgainWhileNoEntryChanges() async throws {
        let desktop = try Desktop()
        try Self.entry("Calculator", ["Categories=Utility;"])
            .write(toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }

            let idle = try await switches(of: daemon, over: .seconds(3))
            #expect(idle.main == 0 && idle.others == 0, "menud woke while nothing changed: \(idle)")

            let cache = try await switches(of: daemon, over: .seconds(1)) {
                try "[MIME Cache]\n".write(
                    toFile: desktop.system + "/mimeinfo.cache", atomically: false, encoding: .utf8)
            }
            #expect(cache.others == 0, "a file that is no entry started a scan: \(cache)")

            let installed = try await switches(of: daemon) {
                try desktop.install(
                    Self.entry("Clock", ["Categories=Utility;"]), as: "clock.desktop", in: desktop.system)
                try await waitUntil("the new entry's row; log:\n\(daemon.log)") {
                    try openRows(daemon).count == 3
                }
            }
            #expect(installed.others > 0, "an entry installed started no scan: \(installed)")
        }
    }

    /// `refresh` reads the directories again at once, without waiting for a burst of
    /// events to pause, and answers once what it found is in: here what a directory
    /// made after the start holds.
    @Test func refreshReadsTheDirectoriesAgain() async throws {
        let desktop = try Desktop()
        try Self.entry("Calculator").write(
            toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        let late = desktop.directory.file("late")
        let environment = ["XDG_DATA_DIRS": desktop.directory.file("system") + ":" + late]
        try await withApplications(desktop, environment: environment) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            try FileManager.default.createDirectory(
                atPath: late + "/applications", withIntermediateDirectories: true)
            try Self.entry("Latecomer").write(
                toFile: late + "/applications/late.desktop", atomically: false, encoding: .utf8)
            let refreshed = try daemon.menuctl(["refresh", "apps"])
            #expect(refreshed.status == 0, "\(refreshed.stderr)")
            #expect(
                try rows(daemon) == [
                    "apps/other Other", "apps/other/calc Calculator", "apps/other/late Latecomer",
                ])
        }
    }

    /// A skipped file is logged once while it stays bad, however many scans read it
    /// again; mended and then broken again, it is logged again.
    @Test func aBadEntryIsLoggedOnceWhileItStaysBad() async throws {
        let desktop = try Desktop()
        let broken = "[Desktop Entry]\nType=Application\nName=Broken\nExec=x\njunk line\n"
        try broken.write(toFile: desktop.system + "/broken.desktop", atomically: false, encoding: .utf8)
        try Self.entry("Calculator").write(
            toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            func logged() -> Int {
                daemon.log.split(separator: "\n").filter { $0.contains(desktop.system + "/broken.desktop") }
                    .count
            }
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }
            try desktop.install(Self.entry("Clock"), as: "clock.desktop", in: desktop.system)
            try await waitUntil("the new entry's row; log:\n\(daemon.log)") {
                try openRows(daemon).count == 3
            }
            #expect(logged() == 1, "\(daemon.log)")

            try desktop.install(Self.entry("Broken"), as: "broken.desktop", in: desktop.system)
            try await waitUntil("the mended entry's row; log:\n\(daemon.log)") {
                try openRows(daemon).count == 4
            }
            try desktop.install(broken, as: "broken.desktop", in: desktop.system)
            try await waitUntil("the broken entry's row to go; log:\n\(daemon.log)") {
                try openRows(daemon).count == 3
            }
            #expect(logged() == 2, "\(daemon.log)")
        }
    }

    /// The directories are read and watched while the menu has an applications
    /// group: a reload that takes the last one away stops that, and one that brings
    /// one back reads them again.
    @Test func aReloadStartsAndStopsFollowingTheApplications() async throws {
        let desktop = try Desktop()
        try Self.entry("Calculator").write(
            toFile: desktop.system + "/calc.desktop", atomically: false, encoding: .utf8)
        let config = desktop.directory.file("menu.yaml")
        let withApplications = try String(
            contentsOfFile: TestPaths.fixture("applications.yaml"), encoding: .utf8)
        let without =
            "menu:\n  - id: tools\n    title: Tools\n    children:\n      - {title: Hello, exec: \"true\"}\n"
        try withApplications.write(toFile: config, atomically: false, encoding: .utf8)
        try await withDaemon(config: config, directory: desktop.directory, environment: desktop.environment())
        {
            daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 2 }

            try without.write(toFile: config, atomically: false, encoding: .utf8)
            #expect(try daemon.request("reload").isOK)
            try await waitUntil("the applications to be let go; log:\n\(daemon.log)") {
                daemon.log.contains("applications: no group shows them any more; not watched")
            }

            try Self.entry("Clock").write(
                toFile: desktop.system + "/clock.desktop", atomically: false, encoding: .utf8)
            try withApplications.write(toFile: config, atomically: false, encoding: .utf8)
            #expect(try daemon.request("reload").isOK)
            try await waitUntil("the applications read again; log:\n\(daemon.log)") {
                try openRows(daemon).count == 3
            }
            #expect(
                try rows(daemon) == [
                    "apps/other Other", "apps/other/calc Calculator", "apps/other/clock Clock",
                ])
        }
    }

    @Test func badEntriesAreSkippedWithOneLogLineEach() async throws {
        let desktop = try Desktop()
        try Self.entry("Good").write(
            toFile: desktop.system + "/good.desktop", atomically: false, encoding: .utf8)
        try "[Desktop Entry]\nType=Application\nName=Broken\nExec=x\njunk line\n"
            .write(toFile: desktop.system + "/broken.desktop", atomically: false, encoding: .utf8)
        let huge = Self.entry("Huge") + "X-Pad=" + String(repeating: "x", count: 1 << 20) + "\n"
        try huge.write(toFile: desktop.system + "/huge.desktop", atomically: false, encoding: .utf8)
        var invalid = Array(Self.entry("Invalid").utf8)
        invalid.insert(0xff, at: 45)
        try Data(invalid).write(to: URL(fileURLWithPath: desktop.system + "/invalid.desktop"))
        try FileManager.default.createSymbolicLink(
            atPath: desktop.system + "/loop.desktop", withDestinationPath: desktop.system + "/loop.desktop")
        try Self.entry("Braces {tools/hello} $(x)", exec: "true {x}")
            .write(toFile: desktop.system + "/braces.desktop", atomically: false, encoding: .utf8)
        try await withApplications(desktop) { daemon in
            try await waitUntil("the applications; log:\n\(daemon.log)") { try openRows(daemon).count == 3 }
            #expect(
                try rows(daemon) == [
                    "apps/other Other", "apps/other/braces Braces {tools/hello} $(x)", "apps/other/good Good",
                ])
            let log = daemon.log.split(separator: "\n")
            for name in ["broken", "huge", "invalid", "loop"] {
                #expect(
                    log.filter { $0.contains("\(desktop.system)/\(name).desktop") }.count == 1,
                    "\(name): \(daemon.log)")
            }
            // The rest of the menu is untouched.
            #expect(try daemon.menuctl(["activate", "tools/hello"]).status == 0)
        }
    }
}
