import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// A daemon started without a config serves the built-in menu, and loads the default
/// config once the user writes it: by the watch, by `reload` and by SIGHUP. This is
/// what a newcomer does: run the demo, then write a menu.
@Suite(.ownThread) struct ConfigAppearsTests {
    static let written = "menu:\n  - id: mine\n    title: My own menu\n    exec: touch ran\n"

    /// How the user's config comes into being.
    enum Creation: String, CaseIterable, CustomStringConvertible {
        /// Written in place, in a `menud` directory that exists already.
        case writtenInPlace
        /// Written beside it and renamed over, as editors save.
        case renamedIntoPlace
        /// Neither `$XDG_CONFIG_HOME` nor its `menud` exist when the daemon starts.
        case directoryCreatedLater
        var description: String { rawValue }
    }

    /// A daemon with `HOME` and `XDG_CONFIG_HOME` in a temporary directory holding no
    /// config; `xdg/menud` exists beforehand unless `makeDirectory` is false.
    private func withConfiglessDaemon(
        watch: Bool, makeDirectory: Bool = true,
        _ body: (TestDaemon, _ configPath: String) async throws -> Void
    ) async throws {
        let directory = try TempDirectory()
        let xdg = directory.file("xdg")
        if makeDirectory {
            try FileManager.default.createDirectory(
                atPath: xdg + "/menud", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(
            atPath: directory.file("home"), withIntermediateDirectories: true)
        let daemon = try TestDaemon(
            directory: directory, config: nil,
            environment: ["HOME": directory.file("home"), "XDG_CONFIG_HOME": xdg, "PATH": "/usr/bin:/bin"],
            watch: watch)
        try await daemon.whileRunning { daemon in try await body(daemon, xdg + "/menud/menu.yaml") }
    }

    private func paths(_ daemon: TestDaemon) throws -> [String] {
        try daemon.request("rows").lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0))?.path }
    }

    private func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test func theStartLogSaysWhereTheConfigIsExpected() async throws {
        try await withConfiglessDaemon(watch: false) { daemon, config in
            let served = try paths(daemon)
            #expect(served.contains("power"), "the built-in menu: \(served)")
            #expect(
                daemon.log.contains("no config at \(config); serving the built-in menu"), "\(daemon.log)")
        }
    }

    @Test(arguments: Creation.allCases)
    func aConfigCreatedLaterIsLoadedWithoutASignal(_ creation: Creation) async throws {
        try await withConfiglessDaemon(watch: true, makeDirectory: creation != .directoryCreatedLater) {
            daemon, config in
            try await waitUntil("the watch to start") { daemon.log.contains("watching") }
            let subscriber = try daemon.connect()
            try subscriber.subscribe("config")
            #expect(try paths(daemon).contains("power"))
            switch creation {
            case .writtenInPlace:
                try write(Self.written, to: config)
            case .renamedIntoPlace:
                try write(Self.written, to: config + ".swp")
                #expect(rename(config + ".swp", config) == 0)
            case .directoryCreatedLater:
                try FileManager.default.createDirectory(
                    atPath: (config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try write(Self.written, to: config)
            }
            let group = try subscriber.readEventGroup()
            #expect(group.records.first == "config\treloaded\t\(config)", "\(group.records)")
            #expect(try paths(daemon) == ["mine"])
            #expect(daemon.log.contains("(config file appeared)"), "\(daemon.log)")
            // From now on the file is served, and its changes are seen as before.
            try write(Self.written.replacingOccurrences(of: "My own", with: "Changed"), to: config)
            #expect(try subscriber.readEventGroup().records.first == "config\treloaded\t\(config)")
            #expect(try daemon.request("get mine").lines.first?.contains("Changed menu") == true)
        }
    }

    enum Trigger: String, CaseIterable, CustomStringConvertible {
        case reloadCommand, sighup
        var description: String { rawValue }
    }

    /// With `--no-watch`, only the user's asking loads it: `menuctl reload` or SIGHUP
    /// look at the default path again rather than reloading the built-in menu.
    @Test(arguments: Trigger.allCases)
    func reloadLooksAtTheDefaultPathAgain(_ trigger: Trigger) async throws {
        try await withConfiglessDaemon(watch: false) { daemon, config in
            try write(Self.written, to: config)
            let before = try paths(daemon)
            #expect(before.contains("power"), "not loaded before it is asked for: \(before)")
            switch trigger {
            case .reloadCommand:
                let result = try daemon.menuctl(["--raw", "reload"])
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.contains("reloaded\t\(config)"), "\(result)")
            case .sighup:
                daemon.signal(SIGHUP)
                try await waitUntil("the SIGHUP reload") { daemon.log.contains("reloaded \(config)") }
            }
            #expect(try paths(daemon) == ["mine"])
            // The item runs: the menu served is the file's.
            #expect(try daemon.menuctl(["--raw", "activate", "mine"]).status == 0)
            try await waitUntil("the item's command") {
                daemon.directory.contains("ran")
            }
        }
    }

    /// A broken config that appears is reported, and the built-in menu stays until
    /// the file is fixed.
    @Test func aBrokenConfigThatAppearsKeepsTheBuiltinMenu() async throws {
        try await withConfiglessDaemon(watch: true) { daemon, config in
            try await waitUntil("the watch to start") { daemon.log.contains("watching") }
            let subscriber = try daemon.connect()
            try subscriber.subscribe("config")
            try write("menu:\n  - id: mine\n    exec: [\n", to: config)
            let failed = try subscriber.readEventGroup()
            #expect(
                failed.records.first?.hasPrefix("config\tfailed\t\(config):") == true, "\(failed.records)")
            #expect(daemon.log.contains("reload (config file appeared) failed"), "\(daemon.log)")
            #expect(try paths(daemon).contains("power"))
            let reply = try daemon.request("reload")
            #expect(reply.errorCode == "reload-failed", "\(reply)")
            #expect(try subscriber.readEventGroup().records.first?.hasPrefix("config\tfailed\t") == true)
            try write(Self.written, to: config)
            #expect(try subscriber.readEventGroup().records.first == "config\treloaded\t\(config)")
            #expect(try paths(daemon) == ["mine"])
        }
    }
}
