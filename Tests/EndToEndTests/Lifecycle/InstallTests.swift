import Foundation
import TestSupport
import Testing

/// `make install` and `make uninstall` (the Makefile), the way a packager runs them:
/// installed into a staging `DESTDIR`, the staged tree then moved to where `PREFIX`
/// says, as a package is unpacked, and run from there. The programs (menud, menuctl
/// and the popup) run with the toolchain's library folder hidden by an empty file
/// system mounted over it in a mount namespace of their own, as on a machine without
/// Swift.
///
/// It installs what `make` built last, which must be current (`make -q`): the test
/// cannot build it, because `swift test` holds the lock of `.build` while the tests
/// run, and the release build is in there. `.ci/run` runs `make` before the tests;
/// elsewhere the test is skipped when the sources changed since, and without root
/// (to mount). Under a sanitizer it is skipped too: that run builds no release.
@Suite(.ownThread) struct InstallTests {
    static let programs = ["make", "unshare", "ldd", "bash"]

    /// Whether `make` has nothing left to do.
    static let releaseBuildIsCurrent: Bool = {
        guard let make = XTools.path(of: "make") else { return false }
        return (try? run(make, ["-q", "-C", TestPaths.packageRoot.path, "all"]))?.status == 0
    }()

    @Test(
        .enabled(if: XTools.isCI || (getuid() == 0 && releaseBuildIsCurrent)),
        .disabled(if: SanitizerReport.isSanitizedRun, "the install is the plain release build"))
    func makeInstallGivesProgramsThatRunWithoutTheToolchain() async throws {
        try #require(getuid() == 0, "CI=true but not root: cannot hide the toolchain in a mount namespace")
        try XTools.require(Self.programs)
        try #require(
            Self.releaseBuildIsCurrent,
            "the sources changed since the last `make`: run it before `swift test`, which cannot build it")
        let directory = try TempDirectory()
        let stage = directory.file("stage")
        let prefix = directory.file("prefix")
        let install = try await make(["install", "DESTDIR=\(stage)", "PREFIX=\(prefix)"], in: directory)
        try #require(install.status == 0, "make install failed:\n\(install.log)")
        #expect(!FileManager.default.fileExists(atPath: prefix), "make install wrote outside DESTDIR")

        let staged = try files(under: stage + prefix)
        #expect(staged == Set(Self.installed), "make install put: \(staged.sorted())")
        // A file of another program's beside menud's, which uninstall must leave.
        try "another program's\n".write(
            toFile: stage + prefix + "/bin/other", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: stage + prefix, toPath: prefix)

        let installation = try Installation(prefix: prefix, directory: directory)
        try installation.checkLinkage()
        try await installation.checkRunsWithoutTheToolchain()
        try installation.checkCompletionScripts()
        try installation.checkManualPages()
        try installation.checkUserUnit()

        let uninstall = try await make(["uninstall", "PREFIX=\(prefix)"], in: directory)
        try #require(uninstall.status == 0, "make uninstall failed:\n\(uninstall.log)")
        let left = try files(under: prefix)
        #expect(left == ["bin/other"], "make uninstall left: \(left.sorted())")
    }

    /// What `make install` puts under `PREFIX`, and nothing else.
    static let installed =
        [
            "share/man/man5/menud.yaml.5", "share/systemd/user/menud.service",
        ] + documents.map { "share/doc/menud/" + $0 }
        + ["menud", "menuctl", "menud-popup"].flatMap { program in
            [
                "bin/\(program)", "share/man/man1/\(program).1",
                "share/bash-completion/completions/\(program)",
                "share/zsh/site-functions/_\(program)", "share/fish/vendor_completions.d/\(program).fish",
            ]
        }

    /// The docs and the example config, which the man pages point to.
    static let documents: [String] = {
        let docs = TestPaths.packageRoot.appendingPathComponent("docs")
        let markdown = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return markdown.filter { $0.hasSuffix(".md") } + ["example.yaml"]
    }()

    /// Runs make in the package and waits for it without holding a thread. Its output
    /// goes to a log, returned with its status.
    private func make(_ arguments: [String], in directory: TempDirectory) async throws -> (
        status: Int32?, log: String
    ) {
        let make = try BackgroundProcess(
            try #require(XTools.path(of: "make")), ["-C", TestPaths.packageRoot.path] + arguments,
            environment: ProcessInfo.processInfo.environment,
            log: directory.file("make-\(arguments[0]).log"))
        return try await withCleanup(
            {
                // A bound for a hang only.
                try await waitUntil("make \(arguments[0]) to finish; log: \(make.logPath)", seconds: 120) {
                    !make.isRunning
                }
                return (make.exitStatus, make.log)
            }, cleanup: { await make.stop() })
    }

    /// Every regular file under `root`, by its path relative to it.
    private func files(under root: String) throws -> Set<String> {
        var found: Set<String> = []
        guard let walk = FileManager.default.enumerator(atPath: root) else { return found }
        while let path = walk.nextObject() as? String {
            if walk.fileAttributes?[.type] as? FileAttributeType == .typeRegular { found.insert(path) }
        }
        return found
    }
}

/// The installed files under `prefix`, and the checks on them.
private struct Installation {
    let prefix: String
    let directory: TempDirectory
    let toolchainLibraries: String

    init(prefix: String, directory: TempDirectory) throws {
        self.prefix = prefix
        self.directory = directory
        toolchainLibraries = try #require(
            Self.toolchainLibraries, "the test process loads no libswiftCore.so")
        withoutToolchain = [
            "/usr/bin/unshare", "--mount", "--", "/bin/sh", "-c", "mount -t tmpfs none \"$0\" && exec \"$@\"",
            toolchainLibraries,
        ]
    }

    var menud: String { prefix + "/bin/menud" }
    var menuctl: String { prefix + "/bin/menuctl" }
    var popup: String { prefix + "/bin/menud-popup" }

    /// The folder the test process loads the Swift runtime from: the toolchain's, which
    /// an installed program must not need.
    static let toolchainLibraries: String? = {
        // Read to the end: a /proc file's size is 0.
        let maps = String(
            decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(),
            as: UTF8.self)
        let core = maps.split(separator: "\n").lazy.compactMap { $0.split(separator: " ").last }
            .first { $0.hasSuffix("/libswiftCore.so") }
        // …/usr/lib/swift/linux/libswiftCore.so: the folder above the platform's.
        return core.map {
            URL(fileURLWithPath: String($0)).deletingLastPathComponent().deletingLastPathComponent().path
        }
    }()

    /// Runs a program in a mount namespace where the toolchain's library folder is an
    /// empty file system; `sh` execs it, so the program keeps the launcher's pid.
    let withoutToolchain: [String]

    /// No loader path, and a home and runtime folder of the test's.
    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": directory.file("run")]
    }

    func runWithoutToolchain(
        _ program: String, _ arguments: [String], extraEnvironment: [String: String] = [:]
    ) throws -> ProcessResult {
        let launcher = withoutToolchain
        return try run(
            launcher[0], launcher.dropFirst() + [program] + arguments,
            environment: environment.merging(extraEnvironment) { $1 })
    }

    /// No program loads a library from the toolchain's folder (menuctl is a static
    /// executable, which ldd says), and only the popup links GTK.
    func checkLinkage() throws {
        for program in [menud, menuctl, popup] {
            let ldd = try run("/usr/bin/env", ["ldd", program])
            let output = ldd.stdout + ldd.stderr
            #expect(
                ldd.status == 0 || output.contains("not a dynamic executable"), "ldd \(program): \(output)")
            #expect(!output.contains(toolchainLibraries), "\(program) loads from the toolchain:\n\(output)")
            #expect(!output.contains("not found"), "ldd \(program): \(output)")
            #expect(
                output.contains("libgtk-3.so") == (program == popup),
                "\(program) \(program == popup ? "does not link" : "links") GTK:\n\(output)")
        }
    }

    /// The programs run with the toolchain's libraries hidden: `menud --check`, then a
    /// daemon driven by `menuctl` and reached by the popup, and bash completing through
    /// the installed `menuctl`.
    func checkRunsWithoutTheToolchain() async throws {
        // The hiding works: the build's own menud, linked to the toolchain, cannot start.
        let dynamic = try runWithoutToolchain(TestPaths.menud, ["--version"])
        #expect(dynamic.status != 0 && dynamic.stderr.contains("libswift"), "\(dynamic)")

        let check = try runWithoutToolchain(menud, ["--check", "--config", TestPaths.fixture("menu.yaml")])
        #expect(check.status == 0 && check.stdout.hasSuffix(": ok\n"), "menud --check: \(check)")
        let version = try runWithoutToolchain(menud, ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "menud --version: \(version)")
        let help = try runWithoutToolchain(popup, ["--help"])
        #expect(
            help.status == 0 && help.stdout.contains("USAGE: menud-popup")
                && help.stdout.contains("--margin"),
            "menud-popup --help: \(help)")

        let daemon = try TestDaemon(
            directory: directory, config: TestPaths.fixture("menu.yaml"), environment: environment,
            launcher: withoutToolchain, executable: menud)
        try await daemon.whileRunning { daemon in
            let socket = ["--socket", daemon.socketPath]
            let rows = try runWithoutToolchain(menuctl, socket + ["rows"])
            #expect(rows.status == 0, "menuctl rows: \(rows)")
            #expect(rows.stdout.contains("▾ Settings"), "menuctl rows printed:\n\(rows.stdout)")
            // menuctl's own version and the daemon's, which is the installed menud's.
            let versions = try runWithoutToolchain(menuctl, socket + ["--version"])
            let lines = versions.stdout.split(separator: "\n")
            #expect(versions.status == 0, "menuctl --version: \(versions)")
            #expect(
                lines.count == 2 && lines[0].hasPrefix("menuctl ") && lines[0].hasSuffix(" (protocol 1)")
                    && lines[1] == "menud \(version.stdout.dropLast()) (protocol 1)",
                "menuctl --version printed:\n\(versions.stdout)")
            // With no display to open, the popup says so after reaching the daemon.
            let headless = try runWithoutToolchain(popup, socket)
            #expect(
                headless.status == 1 && headless.stderr.contains("menud-popup: cannot open a display"),
                "menud-popup without a display: \(headless)")
            try checkBashCompletion(socket: daemon.socketPath)
        }
    }

    /// bash, with the installed scripts, completes a subcommand, an option, and a node
    /// path that the installed `menuctl` (found on PATH, as on Tab) asks the daemon for.
    func checkBashCompletion(socket: String) throws {
        let completions = prefix + "/share/bash-completion/completions/"
        for words in [
            ["menuctl", "tog"], ["menud", "--che"], ["menud-popup", "--anc"],
            ["menuctl", "--socket", socket, "toggle", "se"],
        ] {
            let expected: [Substring] =
                switch words.last {
                case "tog": ["toggle"]
                case "--che": ["--check"]
                case "--anc": ["--anchor"]
                default: ["settings", "settings/theme"]
                }
            let completed = try runWithoutToolchain(
                "/bin/bash",
                [
                    "-c",
                    """
                    source "$1"; shift
                    PATH="$PREFIX_BIN:$PATH"
                    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                    _$1 "$1" "${@: -1}" "${@: -2:1}"
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """,
                    "bash", completions + words[0],
                ] + words, extraEnvironment: ["PREFIX_BIN": prefix + "/bin"])
            #expect(
                completed.stdout.split(separator: "\n").sorted() == expected,
                "bash completed '\(words.joined(separator: " "))': \(completed)")
        }
    }

    /// The zsh and fish scripts are argument-parser's for menuctl and the popup
    /// (neither shell is here to run them).
    func checkCompletionScripts() throws {
        let share = prefix + "/share"
        let zsh = try String(contentsOfFile: share + "/zsh/site-functions/_menuctl", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef menuctl\n") && zsh.contains("toggle"), "zsh:\n\(zsh.prefix(400))")
        let fish = try String(
            contentsOfFile: share + "/fish/vendor_completions.d/menuctl.fish", encoding: .utf8)
        #expect(
            fish.contains("complete -c 'menuctl'") && fish.contains("-fa 'toggle'"),
            "fish:\n\(fish.prefix(400))")
        let popupZsh = try String(contentsOfFile: share + "/zsh/site-functions/_menud-popup", encoding: .utf8)
        #expect(
            popupZsh.hasPrefix("#compdef menud-popup\n") && popupZsh.contains("--anchor"),
            "zsh:\n\(popupZsh.prefix(400))")
        let popupFish = try String(
            contentsOfFile: share + "/fish/vendor_completions.d/menud-popup.fish", encoding: .utf8)
        #expect(
            popupFish.contains("complete -c 'menud-popup'") && popupFish.contains("-l 'anchor'"),
            "fish:\n\(popupFish.prefix(400))")
    }

    /// The pages: menud's, menuctl's and the popup's options and subcommands from their
    /// help, with hand-written synopses and sections; menud.yaml(5) names every node key.
    func checkManualPages() throws {
        let man = prefix + "/share/man/"
        let menudPage = try String(contentsOfFile: man + "man1/menud.1", encoding: .utf8)
        #expect(
            menudPage.contains(".Dt MENUD 1") && menudPage.contains("Fl -check"), "\(menudPage.prefix(400))")
        let menuctlPage = try String(contentsOfFile: man + "man1/menuctl.1", encoding: .utf8)
        #expect(menuctlPage.contains(".Dt MENUCTL 1"), "\(menuctlPage.prefix(400))")
        let yamlPage = try String(contentsOfFile: man + "man5/menud.yaml.5", encoding: .utf8)
        #expect(
            yamlPage.contains(".Dt MENUD.YAML 5") && yamlPage.contains("\n.Dd "), "\(yamlPage.prefix(400))")
        let popupPage = try String(contentsOfFile: man + "man1/menud-popup.1", encoding: .utf8)
        #expect(
            popupPage.contains(".Dt MENUD-POPUP 1") && popupPage.contains("popup.css"),
            "\(popupPage.prefix(400))")
        let pages = [
            "menud.1": menudPage, "menuctl.1": menuctlPage, "menud-popup.1": popupPage,
            "menud.yaml.5": yamlPage,
        ]
        for (name, page) in pages {
            let sections = page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map {
                $0.dropFirst(4).replacingOccurrences(of: "\"", with: "")
            }
            let expected =
                name == "menud.yaml.5"
                ? ["NAME", "SYNOPSIS", "DESCRIPTION", "FILES", "EXAMPLES", "SEE ALSO"]
                : [
                    "NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES",
                    "SEE ALSO",
                ]
            #expect(sections == expected, "\(name)'s sections")
            #expect(!page.contains("@DOCDIR@") && !page.contains("@DATE@"), "\(name) kept a placeholder")
            // Every installed file a page names is there.
            for line in page.split(separator: "\n") where line.contains(prefix + "/share/doc/menud/") {
                for word in line.split(separator: " ") where word.hasPrefix(prefix) {
                    #expect(FileManager.default.fileExists(atPath: String(word)), "\(name) names \(word)")
                }
            }
        }
        // The hand-written synopses name every option the programs' help lists at the
        // top (the DESCRIPTION's items up to the first subcommand).
        for (name, page) in ["menud.1": menudPage, "menuctl.1": menuctlPage, "menud-popup.1": popupPage] {
            let synopsis =
                page.components(separatedBy: ".Sh SYNOPSIS\n").last?
                .components(separatedBy: ".Sh ").first ?? ""
            let description =
                page.components(separatedBy: ".Sh DESCRIPTION\n").last?
                .components(separatedBy: "\n.It Em ").first ?? ""
            let options = description.split(separator: "\n").filter { $0.hasPrefix(".It Fl ") }.compactMap {
                $0.split(separator: " ").prefix { $0 != "Ar" }.last { $0.hasPrefix("-") }
            }
            #expect(options.count >= 4, "\(name)'s options: \(options)")
            for option in options {
                #expect(
                    synopsis.contains("Fl \(option)"), "\(name)'s synopsis lacks -\(option):\n\(synopsis)")
            }
        }
        // menud and the popup have no subcommands, which the generator's synopsis named.
        #expect(!menudPage.contains("subcommand"), "\(menudPage)")
        #expect(!popupPage.contains("subcommand"), "\(popupPage)")
        // Every key of docs/config.md's table of node keys is in menud.yaml(5).
        let config = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let keyTable =
            config.components(separatedBy: "### Keys\n").last?.components(separatedBy: "\n\n")
            .first { $0.trimmingCharacters(in: .newlines).hasPrefix("|") } ?? ""
        // "| `id` | all | …": the rows' first cells.
        let keys = keyTable.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap {
            $0.split(separator: "`").dropFirst().first
        }
        #expect(keys.count > 20, "docs/config.md's keys: \(keys)")
        let described = Set(
            yamlPage.split(separator: "\n").filter { $0.hasPrefix(".It ") }.flatMap { line in
                let words = line.split(separator: " ")
                return zip(words, words.dropFirst()).filter { $0.0 == "Ic" }.map(\.1)
            })
        for key in keys { #expect(described.contains(key), "menud.yaml.5 does not describe \(key)") }

        let help = try run(menuctl, ["--help"])
        let subcommands =
            help.stdout.components(separatedBy: "SUBCOMMANDS:").last?
            .split(separator: "\n").compactMap { line -> Substring? in
                // "  name   abstract": a name at the indent of two.
                guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.contains("See '") else {
                    return nil
                }
                return line.split(separator: " ").first
            } ?? []
        #expect(subcommands.count > 10 && subcommands.contains("toggle"), "menuctl --help: \(help.stdout)")
        for name in subcommands {
            #expect(menuctlPage.contains(".It Em \(name)\n"), "menuctl.1 does not describe \(name)")
        }
        // The options every subcommand takes are described once, at the top.
        for option in ["socket", "json", "raw"] {
            let items = menuctlPage.components(separatedBy: "\n.It Fl -\(option)").count - 1
            #expect(items == 1, "menuctl.1 describes --\(option) \(items) times")
        }
    }

    /// The unit starts the installed menud, and systemd finds nothing wrong with it
    /// (`systemd-analyze verify` also checks that the program is there).
    func checkUserUnit() throws {
        let unit = prefix + "/share/systemd/user/menud.service"
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("\nExecStart=\(menud)\n"), "menud.service:\n\(text)")
        guard XTools.isCI || XTools.path(of: "systemd-analyze") != nil else { return }
        try XTools.require(["systemd-analyze"])
        try FileManager.default.createDirectory(
            atPath: directory.file("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let verify = try run(
            "/usr/bin/env", ["systemd-analyze", "--user", "verify", unit],
            environment: environment.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]) {
                $1
            })
        // It reports some faults (a misspelt setting) and still exits 0.
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify)")
    }
}
