import Foundation
import TestSupport
import Testing

/// `make deb`'s packages (the Makefile), menud's and the popup's, installed with
/// apt-get as a user installs them, run, purged one after the other, and checked with
/// lintian.
///
/// Installing changes the machine's packages, so the tests run only when asked, with
/// `MENUD_TEST_DEB=1`, which `.ci/run` sets after `make deb`; then they need root,
/// dpkg and apt-get, and fail without them. They use the packages `make deb` built
/// last, which must be current (`make -q deb`): like InstallTests, they cannot build
/// them while `swift test` holds `.build`. Under a sanitizer they are skipped: that run
/// builds no release.
@Suite(.ownThread) struct DebianPackageTests {
    static let isRequested = ProcessInfo.processInfo.environment["MENUD_TEST_DEB"] == "1"

    /// What `make deb` builds: menud's package, and the popup's, which depends on it.
    static let names = ["menud", "menud-popup"]

    /// The package `name` in the package root, which `make deb` leaves alone there.
    static func package(_ name: String) throws -> String {
        try #require(getuid() == 0, "MENUD_TEST_DEB=1 but not root: cannot install a package")
        try XTools.require(["make", "dpkg", "dpkg-deb", "dpkg-query", "apt-get"])
        let make = try run(
            try #require(XTools.path(of: "make")), ["-q", "-C", TestPaths.packageRoot.path, "deb"])
        try #require(
            make.status == 0,
            "the sources changed since the last `make deb`: run it before `swift test`, which cannot build it"
        )
        let root = TestPaths.packageRoot.path
        let packages = try FileManager.default.contentsOfDirectory(atPath: root)
            .filter { $0.hasPrefix(name + "_") && $0.hasSuffix(".deb") }
        try #require(packages.count == 1, "`make deb` leaves one \(name)_*.deb, not \(packages)")
        return root + "/" + packages[0]
    }

    @Test(
        .enabled(if: isRequested, "MENUD_TEST_DEB=1 installs the packages"),
        .disabled(if: SanitizerReport.isSanitizedRun, "the packages are the plain release build"))
    func installsRunsAndPurgesWithoutATrace() async throws {
        let debs = try Self.names.map(Self.package)
        let versions = try debs.map {
            try Dpkg.run("dpkg-deb", ["--field", $0, "Version"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let version = versions[0]
        #expect(!version.isEmpty && versions == [version, version], "the packages' versions: \(versions)")
        for name in Self.names {
            try #require(
                !Dpkg.isInstalled(name),
                "a \(name) package is installed already; the test would replace and remove it")
        }
        let contents = try Dictionary(uniqueKeysWithValues: zip(Self.names, debs.map(Dpkg.contents)))
        let files = contents.values.joined().filter { !$0.isDirectory }.map(\.path)
        let unowned = files.filter { Dpkg.exists($0) }
        try #require(unowned.isEmpty, "the packages' files are there already, not from a package: \(unowned)")
        // The folders that were there before, which purging leaves.
        let existed = Set(contents.values.joined().map(\.path).filter { Dpkg.exists($0) })

        let directory = try TempDirectory()
        let listed = try await withCleanup(
            {
                let install = try Dpkg.run("apt-get", ["install", "-y"] + debs)
                try #require(install.status == 0, "apt-get install: \(install)")
                var listed: [String: [String]] = [:]
                for name in Self.names {
                    try #require(Dpkg.isInstalled(name), "apt-get installed no \(name)")
                    // What dpkg has of each package is what its file holds.
                    listed[name] = try Dpkg.run("dpkg", ["-L", name]).stdout.split(separator: "\n")
                        .map(String.init).filter { $0 != "/." }
                    #expect(
                        Set(listed[name] ?? []) == Set(contents[name]?.map(\.path) ?? []),
                        "dpkg -L \(name): \(listed[name] ?? [])")
                }
                try await checkInstalled(version: version, directory: directory)
                try checkManualPages()

                // The popup goes alone, with its own files only: menud stays and runs.
                let purgePopup = try Dpkg.run("apt-get", ["purge", "-y", "menud-popup"])
                #expect(purgePopup.status == 0, "apt-get purge menud-popup: \(purgePopup)")
                #expect(
                    !Dpkg.isInstalled("menud-popup"), "menud-popup is still installed after apt-get purge")
                #expect(Dpkg.isInstalled("menud"), "purging menud-popup removed menud")
                let popupLeft = (listed["menud-popup"] ?? []).filter {
                    Dpkg.exists($0) && !existed.contains($0) && !(listed["menud"] ?? []).contains($0)
                }
                #expect(popupLeft.isEmpty, "apt-get purge menud-popup left: \(popupLeft)")
                let menudFiles = (contents["menud"] ?? []).map(\.path).filter { !Dpkg.exists($0) }
                #expect(menudFiles.isEmpty, "purging menud-popup took menud's \(menudFiles)")
                let menud = try run("/usr/bin/menud", ["--version"])
                #expect(menud.status == 0 && menud.stdout == version + "\n", "menud --version: \(menud)")

                let purge = try Dpkg.run("apt-get", ["purge", "-y", "menud"])
                #expect(purge.status == 0, "apt-get purge: \(purge)")
                return Array(listed.values.joined())
            },
            cleanup: {
                for name in Self.names.reversed() where Dpkg.isInstalled(name) {
                    _ = try? Dpkg.run("apt-get", ["purge", "-y", name])
                }
            })
        #expect(!Dpkg.isInstalled("menud"), "menud is still installed after apt-get purge")
        let left = listed.filter { Dpkg.exists($0) && !existed.contains($0) }
        #expect(left.isEmpty, "apt-get purge left: \(left)")
    }

    /// The installed programs run (a daemon, menuctl talking to it, and the popup, its
    /// window on a virtual X server), and systemd finds nothing wrong with the user
    /// unit, which starts the installed menud.
    private func checkInstalled(version: String, directory: TempDirectory) async throws {
        let menud = try run("/usr/bin/menud", ["--version"])
        #expect(menud.status == 0 && menud.stdout == version + "\n", "menud --version: \(menud)")

        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": directory.file("run"),
        ]
        try FileManager.default.createDirectory(
            atPath: directory.file("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let daemon = try TestDaemon(
            directory: directory, config: TestPaths.fixture("menu.yaml"), environment: environment,
            executable: "/usr/bin/menud")
        try await daemon.whileRunning { daemon in
            let versions = try run(
                "/usr/bin/menuctl", ["--socket", daemon.socketPath, "--version"], environment: environment)
            #expect(
                versions.status == 0
                    && versions.stdout == "menuctl \(version) (protocol 1)\nmenud \(version) (protocol 1)\n",
                "menuctl --version: \(versions)")
            let rows = try run(
                "/usr/bin/menuctl", ["--socket", daemon.socketPath, "rows"], environment: environment)
            #expect(rows.status == 0 && rows.stdout.contains("▾ Settings"), "menuctl rows: \(rows)")
            try await checkPopup(daemon: daemon, environment: environment)
        }

        // What the man pages point to, and the config's page.
        for file in [
            "/usr/share/doc/menud/protocol.md", "/usr/share/doc/menud/config.md",
            "/usr/share/doc/menud/integrations.md", "/usr/share/doc/menud/example.yaml",
            "/usr/share/man/man5/menud.yaml.5.gz",
        ] {
            #expect(FileManager.default.fileExists(atPath: file), "the package has no \(file)")
        }

        let unit = "/usr/lib/systemd/user/menud.service"
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("\nExecStart=/usr/bin/menud\n"), "menud.service:\n\(text)")
        try XTools.require(["systemd-analyze"])
        let verify = try run(
            "/usr/bin/env", ["systemd-analyze", "--user", "verify", unit], environment: environment)
        // It reports some faults (a misspelt setting) and still exits 0.
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify)")
    }

    /// The installed popup, with the GTK libraries its package's Depends brought: its
    /// help; without a display, the one-line error it gives after reaching the daemon;
    /// and on Xvfb its window, which a second run closes.
    private func checkPopup(daemon: TestDaemon, environment: [String: String]) async throws {
        let popup = "/usr/bin/menud-popup"
        let help = try run(popup, ["--help"], environment: environment)
        #expect(
            help.status == 0 && help.stdout.contains("USAGE: menud-popup")
                && help.stdout.contains("--anchor"),
            "menud-popup --help: \(help)")
        let socket = ["--socket", daemon.socketPath]
        let headless = try run(popup, socket, environment: environment)
        #expect(
            headless.status == 1 && headless.stderr.contains("menud-popup: cannot open a display"),
            "menud-popup without a display: \(headless)")

        try XTools.require(PopupTests.programs)
        try await withXSession { x in
            var display = environment
            display["DISPLAY"] = x.display
            let first = try x.start(popup, socket + ["--at", "0,0"], environment: display)
            try await x.waitForWindow(class: "menud-popup", from: first)
            let again = try run(popup, socket, environment: display)
            #expect(again.status == 0, "menud-popup, run again: \(again)")
            try await waitUntil("a second run to close the popup; its log: \(first.log)") { !first.isRunning }
            #expect(first.exitStatus == 0, "\(first.ending); \(first.log)")
        }
    }

    /// man renders every installed page, with groff's warnings on, and finds none.
    private func checkManualPages() throws {
        try XTools.require(["man"])
        for (page, title) in [
            ("man1/menud.1.gz", "MENUD(1)"), ("man1/menuctl.1.gz", "MENUCTL(1)"),
            ("man5/menud.yaml.5.gz", "MENUD.YAML(5)"), ("man1/menud-popup.1.gz", "MENUD-POPUP(1)"),
        ] {
            let man = try run(
                "/usr/bin/env", ["man", "--warnings", "-l", "/usr/share/man/" + page],
                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "80"])
            #expect(
                man.status == 0 && man.stdout.hasPrefix(title) && man.stderr.isEmpty,
                "man -l \(page): \(man.status) \(man.stderr)\n\(man.stdout.prefix(400))")
            // The docs it names are in menud's package.
            for word in man.stdout.split(whereSeparator: \.isWhitespace)
            where word.hasPrefix("/usr/share/doc/menud/") {
                let path = word.trimmingCharacters(in: CharacterSet(charactersIn: ".,;)"))
                #expect(FileManager.default.fileExists(atPath: path), "\(page) names \(path)")
            }
        }
        let popupPage = try run(
            "/usr/bin/env", ["man", "-l", "/usr/share/man/man1/menud-popup.1.gz"],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "80"]
        ).stdout
        for text in ["--socket", "--menu", "--at", "--anchor", "--margin", "--output", "popup.css"] {
            #expect(popupPage.contains(text), "menud-popup(1) does not mention \(text)")
        }
    }

    /// menud's Depends names no GTK library, which only the popup links; the popup's
    /// names GTK, gtk-layer-shell and menud of its own version.
    @Test(
        .enabled(if: isRequested, "MENUD_TEST_DEB=1 checks the packages"),
        .disabled(if: SanitizerReport.isSanitizedRun, "the packages are the plain release build"))
    func onlyThePopupDependsOnGTK() throws {
        let menud = try Dpkg.fields(of: try Self.package("menud"))
        let popup = try Dpkg.fields(of: try Self.package("menud-popup"))
        let menudDepends = try #require(menud["Depends"], "menud's fields: \(menud)")
        #expect(
            menudDepends.contains("libc6") && !menudDepends.lowercased().contains("gtk"),
            "menud's Depends: \(menudDepends)")
        let version = try #require(popup["Version"])
        let popupDepends = try #require(popup["Depends"], "menud-popup's fields: \(popup)")
        let names = popupDepends.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]
        }
        for name in ["libgtk-3-0", "libgtk-layer-shell0", "menud"] {
            #expect(names.contains(Substring(name)), "menud-popup's Depends lacks \(name): \(popupDepends)")
        }
        #expect(
            popupDepends.contains("menud (= \(version))"),
            "menud-popup's Depends: \(popupDepends)")
        #expect(popup["Source"] == "menud", "menud-popup's Source: \(popup["Source"] ?? "none")")
    }

    /// lintian, Debian's package checker, finds no error in either package. Its warnings
    /// (and its notes, `-I`) are in the failure message, for whoever fixes an error.
    @Test(
        .enabled(if: isRequested, "MENUD_TEST_DEB=1 checks the packages"),
        .disabled(if: SanitizerReport.isSanitizedRun, "the packages are the plain release build"))
    func lintianFindsNoError() throws {
        let debs = try Self.names.map(Self.package)
        try XTools.require(["lintian"])
        for deb in debs {
            let lintian = try run("/usr/bin/env", ["lintian", "-I", "--fail-on", "error", deb], seconds: 600)
            let errors = lintian.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") }
            #expect(lintian.status == 0 && errors.isEmpty, "lintian \(deb): \(lintian)")
        }
    }
}

/// dpkg's and apt's view of the packages.
private enum Dpkg {
    /// A program of dpkg's or apt's, never asking a question.
    static func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        return try TestSupport.run(
            "/usr/bin/env", [program] + arguments, environment: environment, seconds: 600)
    }

    /// Whether dpkg has `package` installed, or half installed: anything but gone.
    static func isInstalled(_ package: String) -> Bool {
        // Unknown to dpkg, dpkg-query fails; known, it says "not-installed" or another state.
        guard let query = try? run("dpkg-query", ["--show", "--showformat=${db:Status-Status}", package])
        else { return true }
        return query.status == 0 && query.stdout != "not-installed"
    }

    /// The package file's control fields, one line each (the description's further
    /// lines left out).
    static func fields(of deb: String) throws -> [String: String] {
        let control = try run("dpkg-deb", ["--field", deb])
        try #require(control.status == 0, "dpkg-deb --field: \(control)")
        var fields: [String: String] = [:]
        for line in control.stdout.split(separator: "\n") where !line.hasPrefix(" ") {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    /// A path in the package's file system, as dpkg lists it ("/usr/bin/menud").
    struct Entry {
        let path: String
        let isDirectory: Bool
    }

    /// The package file's entries, from its data archive's listing
    /// (`drwxr-xr-x root/root 0 2026-01-01 00:00 ./usr/bin/`).
    static func contents(of deb: String) throws -> [Entry] {
        let listing = try run("dpkg-deb", ["--contents", deb])
        try #require(listing.status == 0, "dpkg-deb --contents: \(listing)")
        return listing.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            // A link's entry ends in " -> target".
            var path = String(fields[5].dropFirst().split(separator: " -> ", maxSplits: 1)[0])
            if path.hasSuffix("/") { path.removeLast() }
            return path.isEmpty ? nil : Entry(path: path, isDirectory: line.hasPrefix("d"))
        }
    }

    /// Whether anything is at `path`, a dangling link included.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
