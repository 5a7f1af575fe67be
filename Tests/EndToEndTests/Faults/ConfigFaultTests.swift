import Foundation
import MenuClient
import TestSupport
import Testing

/// The config file disappears or turns into something unreadable under a running
/// daemon: the menu in memory stays, the daemon says why, and it picks the file up
/// again when it is back.
@Suite(.ownThread) struct ConfigFaultTests {
    private func withCopiedConfig(_ body: (TestDaemon, String) async throws -> Void) async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try String(contentsOfFile: TestPaths.fixture("menu.yaml"), encoding: .utf8).write(
            toFile: config, atomically: false, encoding: .utf8)
        try await withDaemon(config: config, directory: directory, watch: true) { daemon in
            try await waitUntil("the watcher to start") { daemon.log.contains("watching") }
            try await body(daemon, config)
        }
    }

    @Test func aDeletedConfigKeepsTheMenuUntilItIsBack() async throws {
        try await withCopiedConfig { daemon, config in
            #expect(unlink(config) == 0)
            try await waitUntil("the removal to be logged; log:\n\(daemon.log)") {
                daemon.log.contains("\(config) was removed; keeping the current menu")
            }
            #expect(try daemon.request("get apps").isOK)
            #expect(daemon.log.components(separatedBy: "was removed").count == 2, "\(daemon.log)")
            let reload = try daemon.request("reload")
            #expect(reload.errorCode == "reload-failed")
            #expect(reload.errorMessage?.contains("cannot read config: No such file or directory") == true)

            try "menu:\n  - id: back\n    title: Back\n".write(
                toFile: config, atomically: false, encoding: .utf8)
            try await waitUntil("the config to be loaded again") { try daemon.request("get back").isOK }
        }
    }

    /// A FIFO must not hang the daemon in open(), and a directory is no config.
    @Test func aConfigReplacedByAFIFOOrADirectoryIsRefused() async throws {
        try await withCopiedConfig { daemon, config in
            #expect(unlink(config) == 0)
            #expect(mkfifo(config, 0o600) == 0)
            daemon.signal(SIGHUP)
            try await waitUntil("the FIFO to be refused; log:\n\(daemon.log)") {
                daemon.log.contains("\(config):1:1: cannot read config: not a regular file")
            }
            #expect(try daemon.request("get apps").isOK)

            #expect(unlink(config) == 0)
            #expect(mkdir(config, 0o700) == 0)
            let reload = try daemon.request("reload")
            #expect(reload.errorMessage?.contains("cannot read config: Is a directory") == true, "\(reload)")
            #expect(try daemon.request("get apps").isOK)

            #expect(rmdir(config) == 0)
            try "menu:\n  - id: back\n    title: Back\n".write(
                toFile: config, atomically: false, encoding: .utf8)
            try await waitUntil("the file to be loaded again") { try daemon.request("get back").isOK }
        }
    }

    /// As root, chmod 000 stops nothing, so this daemon runs as `nobody`; it is then
    /// asked through `menuctl` as `nobody` too, since it serves only its own user.
    /// Without root the test is skipped, except on CI (`CI=true`), where it must run.
    @Test(.enabled(if: XTools.isCI || getuid() == 0))
    func aConfigMadeUnreadableKeepsTheMenuUntilItIsReadable() async throws {
        try #require(getuid() == 0, "CI=true but not root: cannot run menud as nobody")
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let directory = try TempDirectory()
        #expect(chmod(directory.path, 0o777) == 0)
        let config = directory.file("menu.yaml")
        try String(contentsOfFile: TestPaths.fixture("menu.yaml"), encoding: .utf8).write(
            toFile: config, atomically: false, encoding: .utf8)
        #expect(chmod(config, 0o644) == 0)
        try await withDaemon(config: config, directory: directory, launcher: nobody, watch: true) { daemon in
            func get(_ path: String) throws -> ProcessResult {
                try run(
                    nobody[0],
                    nobody.dropFirst() + [TestPaths.menuctl, "--socket", daemon.socketPath, "get", path])
            }
            try await waitUntil("the watcher to start") { daemon.log.contains("watching") }
            #expect(try get("apps").status == 0)

            #expect(chmod(config, 0) == 0)
            try await waitUntil("the refusal to be logged; log:\n\(daemon.log)") {
                daemon.log.contains("\(config):1:1: cannot read config: Permission denied")
            }
            #expect(daemon.log.components(separatedBy: "cannot read config").count == 2, "\(daemon.log)")
            let kept = try get("apps")
            #expect(kept.status == 0, "\(kept)")

            try "menu:\n  - id: back\n    title: Back\n".write(
                toFile: config, atomically: false, encoding: .utf8)
            #expect(chmod(config, 0o644) == 0)
            try await waitUntil("the config to be loaded again; log:\n\(daemon.log)") {
                try get("back").status == 0
            }
        }
    }
}
