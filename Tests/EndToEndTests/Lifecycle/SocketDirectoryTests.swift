import Foundation
import MenuClient
import TestSupport
import Testing

/// The directory that holds the socket decides which daemon clients reach, so menud
/// only uses one that is really its own: never a symbolic link, never another user's,
/// never one others may write to. The `/tmp/menud-$UID` fallback is where this
/// matters most, since anybody can create that name first.
@Suite(.ownThread) struct SocketDirectoryTests {
    /// Runs menud expecting it to refuse, and returns its error output.
    private func refusal(socket: String, environment: [String: String]? = nil) throws -> String {
        let result = try run(
            TestPaths.menud,
            ["--config", TestPaths.fixture("menu.yaml"), "--no-state"]
                + (socket.isEmpty ? [] : ["--socket", socket]),
            environment: environment)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        return result.stderr
    }

    /// A path too long for a socket is refused before anything is made for it, with
    /// the path and the limit named.
    @Test func anOverLongPathIsRefusedAndLeavesNothing() throws {
        let directory = try TempDirectory()
        let deep = directory.file(String(repeating: "d", count: 60) + "/" + String(repeating: "e", count: 60))
        let socket = deep + "/socket"
        let stderr = try refusal(socket: socket)
        #expect(
            stderr.contains("socket path \(socket) is \(socket.utf8.count) bytes long")
                && stderr.contains("at most 107"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let directory = try TempDirectory()
        let target = directory.file("target")
        try FileManager.default.createDirectory(
            atPath: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("link"), withDestinationPath: target)
        let stderr = try refusal(socket: directory.file("link/socket"))
        #expect(stderr.contains("symbolic link"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test(arguments: [0o777, 0o770, 0o1777, 0o702])
    func aDirectoryOthersCanWriteIsRefused(mode: Int) throws {
        let directory = try TempDirectory()
        let shared = directory.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, mode_t(mode))
        let stderr = try refusal(socket: shared + "/socket")
        #expect(stderr.contains("writable by group or others"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/socket"))
    }

    /// Needs root, to give a directory away.
    @Test(.enabled(if: getuid() == 0))
    func anotherUsersDirectoryIsRefused() throws {
        let directory = try TempDirectory()
        let theirs = directory.file("theirs")
        try FileManager.default.createDirectory(
            atPath: theirs, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        chown(theirs, 65534, 65534)
        let stderr = try refusal(socket: theirs + "/socket")
        #expect(stderr.contains("belongs to uid 65534"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: theirs + "/socket"))
    }

    /// The real fallback path, with neither `MENUD_SOCKET` nor `XDG_RUNTIME_DIR` set,
    /// and a symlink planted there by "someone else". Only when that path is free, so
    /// the test never touches a daemon the machine's user runs.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/tmp/menud-\(getuid())")))
    func aSymlinkPlantedAtTheTmpFallbackIsRefused() throws {
        let fallback = "/tmp/menud-\(getuid())"
        let decoy = try TempDirectory()
        try FileManager.default.createSymbolicLink(atPath: fallback, withDestinationPath: decoy.path)
        defer { unlink(fallback) }
        var environment = ProcessInfo.processInfo.environment
        environment["MENUD_SOCKET"] = nil
        environment["XDG_RUNTIME_DIR"] = nil
        environment["XDG_STATE_HOME"] = decoy.path
        let stderr = try refusal(socket: "", environment: environment)
        #expect(stderr.contains("\(fallback) is a symbolic link"), "\(stderr)")
        #expect(!decoy.contains("socket"))
    }
}
