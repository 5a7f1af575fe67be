import Foundation
import MenuClient
import Testing

/// The config file disappears or turns into something unreadable under a running
/// daemon: the menu in memory stays, the daemon says why, and it picks the file up
/// again when it is back.
@Suite struct ConfigFaultTests {
    private func withCopiedConfig(_ body: (TestDaemon, String) async throws -> Void) async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try String(contentsOfFile: TestPaths.fixture("menu.yaml"), encoding: .utf8).write(
            toFile: config, atomically: false, encoding: .utf8)
        try await withDaemon(config: config, directory: directory) { daemon in
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
            defer { rmdir(config) }
            let reload = try daemon.request("reload")
            #expect(reload.errorMessage?.contains("cannot read config: Is a directory") == true, "\(reload)")
            #expect(try daemon.request("get apps").isOK)
        }
    }
}
