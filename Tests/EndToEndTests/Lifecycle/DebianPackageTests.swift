import Foundation
import TestSupport
import Testing

/// `make deb`'s package (the Makefile), installed with apt-get as a user installs it,
/// run, purged, and checked with lintian.
///
/// Installing changes the machine's packages, so the tests run only when asked, with
/// `MENUD_TEST_DEB=1`, which `.ci/run` sets after `make deb`; then they need root,
/// dpkg and apt-get, and fail without them. They use the package `make deb` built
/// last, which must be current (`make -q deb`): like InstallTests, they cannot build
/// it while `swift test` holds `.build`. Under a sanitizer they are skipped: that run
/// builds no release.
@Suite(.ownThread) struct DebianPackageTests {
    static let isRequested = ProcessInfo.processInfo.environment["MENUD_TEST_DEB"] == "1"

    /// The package in the package root, which `make deb` leaves alone there.
    static func package() throws -> String {
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
            .filter { $0.hasPrefix("menud_") && $0.hasSuffix(".deb") }
        try #require(packages.count == 1, "`make deb` leaves one menud_*.deb, not \(packages)")
        return root + "/" + packages[0]
    }

    @Test(
        .enabled(if: isRequested, "MENUD_TEST_DEB=1 installs the package"),
        .disabled(if: SanitizerReport.isSanitizedRun, "the package is the plain release build"))
    func installsRunsAndPurgesWithoutATrace() async throws {
        let deb = try Self.package()
        let version = try Dpkg.run("dpkg-deb", ["--field", deb, "Version"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        try #require(
            !Dpkg.isInstalled, "a menud package is installed already; the test would replace and remove it")
        let contents = try Dpkg.contents(of: deb)
        let files = contents.filter { !$0.isDirectory }.map(\.path)
        let unowned = files.filter { Dpkg.exists($0) }
        try #require(unowned.isEmpty, "the package's files are there already, not from a package: \(unowned)")
        // The folders that were there before, which purging leaves.
        let existed = Set(contents.map(\.path).filter { Dpkg.exists($0) })

        let directory = try TempDirectory()
        let listed = try await withCleanup(
            {
                let install = try Dpkg.run("apt-get", ["install", "-y", deb])
                try #require(install.status == 0, "apt-get install: \(install)")
                try #require(Dpkg.isInstalled, "apt-get installed no menud")
                // What dpkg has of the package is what the file holds.
                let listed = try Dpkg.run("dpkg", ["-L", "menud"]).stdout.split(separator: "\n")
                    .map(String.init).filter { $0 != "/." }
                #expect(Set(listed) == Set(contents.map(\.path)), "dpkg -L menud: \(listed)")
                try await checkInstalled(version: version, directory: directory)

                let purge = try Dpkg.run("apt-get", ["purge", "-y", "menud"])
                #expect(purge.status == 0, "apt-get purge: \(purge)")
                return listed
            },
            cleanup: {
                if Dpkg.isInstalled { _ = try? Dpkg.run("apt-get", ["purge", "-y", "menud"]) }
            })
        #expect(!Dpkg.isInstalled, "menud is still installed after apt-get purge")
        let left = listed.filter { Dpkg.exists($0) && !existed.contains($0) }
        #expect(left.isEmpty, "apt-get purge left: \(left)")
    }

    /// The installed programs run (a daemon, and menuctl talking to it), and systemd
    /// finds nothing wrong with the user unit, which starts the installed menud.
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
        }

        // What the man pages point to, and the config's page.
        for file in [
            "/usr/share/doc/menud/protocol.md", "/usr/share/doc/menud/config.md",
            "/usr/share/doc/menud/example.yaml", "/usr/share/man/man5/menud.yaml.5.gz",
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

    /// lintian, Debian's package checker, finds no error. Its warnings (and its notes,
    /// `-I`) are in the failure message, for whoever fixes an error.
    @Test(
        .enabled(if: isRequested, "MENUD_TEST_DEB=1 checks the package"),
        .disabled(if: SanitizerReport.isSanitizedRun, "the package is the plain release build"))
    func lintianFindsNoError() throws {
        let deb = try Self.package()
        try XTools.require(["lintian"])
        let lintian = try run("/usr/bin/env", ["lintian", "-I", "--fail-on", "error", deb], seconds: 600)
        let errors = lintian.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") }
        #expect(lintian.status == 0 && errors.isEmpty, "lintian \(deb): \(lintian)")
    }
}

/// dpkg's and apt's view of the menud package.
private enum Dpkg {
    /// A program of dpkg's or apt's, never asking a question.
    static func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        return try TestSupport.run(
            "/usr/bin/env", [program] + arguments, environment: environment, seconds: 600)
    }

    /// Whether dpkg has menud installed, or half installed: anything but gone.
    static var isInstalled: Bool {
        // Unknown to dpkg, dpkg-query fails; known, it says "not-installed" or another state.
        guard let query = try? run("dpkg-query", ["--show", "--showformat=${db:Status-Status}", "menud"])
        else { return true }
        return query.status == 0 && query.stdout != "not-installed"
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
