import Foundation
import MenuClient
import TestSupport
import Testing

/// menuctl checks whom it talks to before it sends anything: the socket's directory
/// must be a private one of the user's own, as menud demands of it, and the process
/// listening there must be the same user. In the `/tmp/menud-$UID` fallback anybody
/// could have made the directory first and put a socket in it.
@Suite(.ownThread) struct MenuctlTrustTests {
    /// Mounting and chown need root, as the other users' sockets do.
    static var isRoot: Bool { getuid() == 0 }

    /// A listener at `socket`, started by root and turned into uid 65534 (nobody)
    /// before it listens, as SO_PEERCRED reports it. It greets like menud and prints
    /// how many bytes its one client sent.
    private func startImpostor(at socket: String, in directory: TempDirectory) throws -> BackgroundProcess {
        let script = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(sys.argv[1])
            os.chmod(sys.argv[1], 0o777)
            os.setresgid(65534, 65534, 65534)
            os.setresuid(65534, 65534, 65534)
            s.listen(1)
            print("listening", flush=True)
            c, _ = s.accept()
            got = b""
            try:
                c.sendall(b"OK MENUD 1\\n")
                c.settimeout(2)
                while True:
                    chunk = c.recv(4096)
                    if not chunk:
                        break
                    got += chunk
            except (OSError, socket.timeout):
                pass
            print("received", len(got), flush=True)
            """
        return try BackgroundProcess(
            "/usr/bin/python3", ["-c", script, socket], environment: ProcessInfo.processInfo.environment,
            log: directory.file("impostor.log"))
    }

    @Test(.enabled(if: isRoot || XTools.isCI))
    func aListenerOfAnotherUserIsNotSentAnything() async throws {
        try #require(Self.isRoot, "CI=true but not root: the other user's listener cannot be made")
        let directory = try TempDirectory()
        let socket = directory.file("socket")
        let impostor = try startImpostor(at: socket, in: directory)
        defer { impostor.killAndReap(group: true) }
        try await waitUntil("the impostor to listen; its log: \(impostor.log)") {
            impostor.log.contains("listening")
        }
        let result = try run(TestPaths.menuctl, ["--socket", socket, "set", "settings/hostname", "leaked"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("belongs to uid 65534, not to you"), "\(result.stderr)")
        try await waitUntil("the impostor to say what it received; its log: \(impostor.log)") {
            impostor.log.contains("received")
        }
        #expect(impostor.log.contains("received 0"), "\(impostor.log)")
    }

    @Test(.enabled(if: isRoot || XTools.isCI))
    func aDirectoryOfAnotherUserIsNotUsed() async throws {
        try #require(Self.isRoot, "CI=true but not root: another user's directory cannot be made")
        let directory = try TempDirectory()
        let planted = directory.file("menud-1000")
        try FileManager.default.createDirectory(
            atPath: planted, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(chown(planted, 65534, 65534) == 0)
        let result = try run(TestPaths.menuctl, ["--socket", planted + "/socket", "rows"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("\(planted) belongs to uid 65534, not to you"), "\(result.stderr)")
    }

    @Test(arguments: [0o777, 0o1777, 0o720])
    func aDirectoryOthersCanWriteIsNotUsed(mode: Int) throws {
        let directory = try TempDirectory()
        let shared = directory.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, mode_t(mode))
        let result = try run(TestPaths.menuctl, ["--socket", shared + "/socket", "ping"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("writable by group or others"), "\(result.stderr)")
    }
}
