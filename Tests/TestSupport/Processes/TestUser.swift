import Foundation
import Testing

/// A system user made for one test and removed after it, for programs that refuse to
/// run as root (sway) while the tests do. menud answers only its own uid
/// (`PeerCredentialHandler`), so the menuctl a bar runs as this user needs a daemon
/// running as this user too: ``withDaemon(config:_:)`` starts one.
///
/// When the tests do not run as root, the user is the current one: nothing is made,
/// removed or killed.
public final class TestUser {
    public let name: String
    public let uid: uid_t
    public let gid: gid_t
    /// Whether this test made the user, and so may end its processes and remove it.
    public let isOwned: Bool
    /// Copies of what this user must read or run and could not reach where it is
    /// (``readable(_:)``, ``executable(_:)``), made at the first need.
    private var copies: TempDirectory?
    private var executables: [String: String] = [:]

    /// Runs a program as this user. setpriv execs it (runuser would fork and wait), so
    /// the pid a test holds is the program's own, and a signal sent to it reaches it.
    public var launcher: [String] {
        isOwned ? ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] : []
    }

    private init(name: String, uid: uid_t, gid: gid_t, isOwned: Bool) {
        self.name = name
        self.uid = uid
        self.gid = gid
        self.isOwned = isOwned
    }

    fileprivate static func make() async throws -> TestUser {
        guard geteuid() == 0 else {
            let name = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "\(getuid())"
            return TestUser(name: name, uid: getuid(), gid: getgid(), isOwned: false)
        }
        let name = "menud-sway-" + String(UInt32.random(in: 0..<0x100_0000), radix: 16)
        // useradd refuses while another holds the lock on /etc/passwd: tests running at
        // once each make a user.
        try await waitUntil("useradd \(name) to get the lock on /etc/passwd") {
            let result = try TestSupport.run(
                "/usr/sbin/useradd",
                [
                    "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell",
                    "/usr/sbin/nologin", name,
                ])
            if result.status == 0 { return true }
            guard result.stderr.contains("lock") else {
                throw TimedOut(description: "useradd \(name): \(result)")
            }
            return false
        }
        guard let entry = getpwnam(name) else { throw TimedOut(description: "useradd made no \(name)") }
        return TestUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, isOwned: true)
    }

    /// A temporary directory this user owns (mode 0700), removed however the test ends.
    public func directory() throws -> TempDirectory {
        let directory = try TempDirectory()
        try own(directory.path)
        return directory
    }

    public func own(_ path: String) throws {
        guard isOwned else { return }
        guard chown(path, uid, gid) == 0 else {
            throw TimedOut(description: "chown \(path) to \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// `path` when this user may read it, else a copy of it this user owns. A checkout
    /// in a folder that others cannot enter (such as root's home) holds the fixtures a
    /// program run as this user reads.
    public func readable(_ path: String) throws -> String {
        guard isOwned, try !mayRead(path) else { return path }
        let copy = try copiesDirectory().file("\(UUID().uuidString)-\((path as NSString).lastPathComponent)")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try own(copy)
        return copy
    }

    /// The build's executable `name` (menud, menuctl) as this user may run it: the
    /// build's own when this user can reach it and every library it loads, else a copy
    /// in a folder of this user's own, with copies of the libraries it could not reach
    /// next to it (the executables look in their own folder too: `$ORIGIN`).
    public func executable(_ name: String) throws -> String {
        if let known = executables[name] { return known }
        let built = TestPaths.buildDirectory.appendingPathComponent(name).path
        guard isOwned, try !mayRun(built) else {
            executables[name] = built
            return built
        }
        let bin = try copiesDirectory().file("bin")
        if !FileManager.default.fileExists(atPath: bin) {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
            try own(bin)
        }
        let copy = bin + "/" + name
        try copyExecutable(built, to: copy)
        try own(copy)
        // The libraries this user's loader cannot find, found where root's does.
        let missing = Set(
            try run("/usr/bin/ldd", [copy], environment: [:]).stdout.split(separator: "\n").compactMap {
                line in
                line.contains("=> not found") ? line.split(separator: " ").first.map(String.init) : nil
            })
        if !missing.isEmpty {
            for line in try TestSupport.run("/usr/bin/ldd", [copy]).stdout.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count >= 3, words[1] == "=>", missing.contains(String(words[0])) else { continue }
                let library = bin + "/" + words[0]
                if !FileManager.default.fileExists(atPath: library) {
                    try FileManager.default.copyItem(atPath: String(words[2]), toPath: library)
                    try own(library)
                }
            }
        }
        guard try mayRun(copy) else {
            throw TimedOut(description: "\(name) copied to \(copy) and still not runnable as \(self.name)")
        }
        executables[name] = copy
        return copy
    }

    private func mayRead(_ path: String) throws -> Bool {
        try run("/usr/bin/test", ["-r", path], environment: [:]).status == 0
    }

    /// Whether this user may execute `path` and its loader finds every library it
    /// loads (a static executable has none).
    private func mayRun(_ path: String) throws -> Bool {
        let check = #"test -x "$1" && ! /usr/bin/ldd "$1" 2>/dev/null | grep -q 'not found'"#
        return try run("/bin/sh", ["-c", check, "sh", path], environment: ["PATH": "/usr/bin:/bin"]).status
            == 0
    }

    private func copiesDirectory() throws -> TempDirectory {
        if let copies { return copies }
        let made = try directory()
        copies = made
        return made
    }

    /// Runs a program to completion as this user, with exactly `environment`.
    public func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws
        -> ProcessResult
    {
        let command = launcher + [executable] + arguments
        return try TestSupport.run(command[0], Array(command.dropFirst()), environment: environment)
    }

    /// Ends what is left of this user's processes (a bar leaves its module's script
    /// running, in a process group of its own), then removes the user and its group.
    fileprivate func remove() async {
        guard isOwned else { return }
        var left: [pid_t] = []
        try? await waitUntil("\(name)'s processes to end", seconds: 10) {
            left = processes()
            for pid in left { kill(pid, SIGKILL) }
            return left.isEmpty
        }
        #expect(left.isEmpty, "processes of \(name) still running: \(left)")
        var result: ProcessResult?
        try? await waitUntil("userdel \(name)", seconds: 10) {
            result = try TestSupport.run("/usr/sbin/userdel", [name])
            // Refused, as useradd is, while another test holds the lock on /etc/passwd.
            return result?.status == 0 || result?.stderr.contains("lock") != true
        }
        #expect(result?.status == 0, "userdel \(name): \(String(describing: result))")
    }

    /// The live processes whose owner is this user (a zombie's reaper is its parent).
    private func processes() -> [pid_t] {
        ProcessEntry.all().filter { process in
            var info = stat()
            return !process.isZombie && stat("/proc/\(process.pid)", &info) == 0 && info.st_uid == uid
        }.map(\.pid)
    }
}

/// Runs `body` with a user of its own (see ``TestUser``), removed with whatever it
/// left running however the test ends.
public func withTestUser<T>(_ body: (TestUser) async throws -> T) async throws -> T {
    let user = try await TestUser.make()
    return try await withCleanup({ try await body(user) }, cleanup: { await user.remove() })
}

extension TestUser {
    /// A menud running as this user, in a directory this user owns, which this user's
    /// menuctl may reach (``menuctl(_:_:)``): menud refuses every other uid, root's too.
    public func withDaemon<T>(
        config: String = TestPaths.fixture("menu.yaml"), environment: [String: String]? = nil,
        _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        try await daemon(directory: try directory(), config: config, environment: environment)
            .whileRunning(body)
    }

    /// A menud (not started) to run as this user, on `socketPath` (by default in
    /// `directory`): the build's, with `config`, or copies of them when this user
    /// cannot reach them (see ``executable(_:)``).
    public func daemon(
        directory: TempDirectory, config: String, socketPath: String? = nil,
        environment: [String: String]? = nil
    ) throws -> TestDaemon {
        try TestDaemon(
            directory: directory, config: try readable(config), socketPath: socketPath,
            environment: environment,
            launcher: launcher, executable: try executable("menud"))
    }

    /// The real menuctl, run as this user against `daemon`.
    public func menuctl(_ daemon: TestDaemon, _ arguments: [String]) throws -> ProcessResult {
        try run(
            try executable("menuctl"), ["--socket", daemon.socketPath] + arguments,
            environment: ProcessInfo.processInfo.environment)
    }
}
