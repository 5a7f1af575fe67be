import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// What the state file holds of nodes the menu being served lacks: kept, so that a
/// run serving another menu (the built-in one while the config is missing, or a
/// config an editor saved half-way) loses nothing; and the file itself, written
/// only when something changed and never through a link planted beside it.
@Suite(.ownThread) struct StateKeptTests {
    /// A config of the user's own, with a value the built-in menu does not have.
    static let config = """
        menu:
          - id: mine
            title: Mine
            children:
              - {id: mode, title: "Mode: {value}", type: toggle, value: off}
          - id: other
            title: Other
            children:
              - {id: name, title: "Name: {value}", type: text, value: x}

        """
    /// The same config, briefly without `mine`.
    static let configWithoutMine = """
        menu:
          - id: other
            title: Other
            children:
              - {id: name, title: "Name: {value}", type: text, value: x}

        """

    private func value(_ daemon: TestDaemon, _ path: String) throws -> String? {
        try daemon.request("get \(path)").lines.first
            .flatMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }?.value
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// The daemon looks for its config at the default place, under `directory`.
    private func daemon(in directory: TempDirectory) throws -> TestDaemon {
        try TestDaemon(
            directory: directory, config: nil,
            environment: [
                "HOME": directory.path, "XDG_CONFIG_HOME": directory.file("config"), "PATH": "/usr/bin:/bin",
            ])
    }

    private func withDefaultDaemon(in directory: TempDirectory, _ body: (TestDaemon) async throws -> Void)
        async throws
    {
        let daemon = try daemon(in: directory)
        try await daemon.whileRunning { daemon in
            try await body(daemon)
            await daemon.stop()
            #expect(daemon.process.exitStatus == 0, "menud \(daemon.process.ending); log: \(daemon.log)")
        }
    }

    @Test func aRunWithoutTheConfigLeavesTheStateFileAsItWas() async throws {
        let directory = try TempDirectory()
        let configDirectory = directory.file("config/menud")
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        let config = configDirectory + "/menu.yaml"
        try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
        let state = directory.file("state")

        try await withDefaultDaemon(in: directory) { daemon throws in
            #expect(try daemon.request("set mine/mode on").isOK)
        }
        let saved = try #require(contents(state))
        #expect(String(decoding: saved, as: UTF8.self).contains("value mine/mode on"))

        // The dotfiles are not there yet: the built-in menu, and nothing touched.
        try FileManager.default.moveItem(atPath: config, toPath: directory.file("away.yaml"))
        try await withDefaultDaemon(in: directory) { daemon throws in
            #expect(daemon.log.contains("serving the built-in menu"), "\(daemon.log)")
            #expect(daemon.log.contains("kept 1 entries for nodes this menu lacks"), "\(daemon.log)")
        }
        #expect(contents(state) == saved, "the state file changed in a run that changed nothing")
        #expect(StateFileTests.badCopies(directory).isEmpty)

        // A change to the built-in menu is written with the kept entry beside it.
        try await withDefaultDaemon(in: directory) { daemon throws in
            #expect(try daemon.request("set display/volume 60").isOK)
        }
        let both = String(decoding: try #require(contents(state)), as: UTF8.self)
        #expect(both.contains("value mine/mode on") && both.contains("value display/volume 60"), "\(both)")

        // The config is back, and so is the value.
        try FileManager.default.moveItem(atPath: directory.file("away.yaml"), toPath: config)
        try await withDefaultDaemon(in: directory) { daemon throws in
            #expect(try value(daemon, "mine/mode") == "on", "\(daemon.log)")
        }
    }

    @Test func aReloadOfAConfigLackingASectionKeepsItsState() async throws {
        try await withConfigFile(Self.config) { config in
            try await withDaemon(config: config) { daemon in
                #expect(try daemon.request("set mine/mode on").isOK)
                try Self.configWithoutMine.write(toFile: config, atomically: true, encoding: .utf8)
                #expect(try daemon.request("reload").isOK)
                #expect(try daemon.request("get mine/mode").errorCode == "no-such-node")
                // A change meanwhile writes the file, with the entry kept.
                #expect(try daemon.request("set other/name y").isOK)
                #expect(try daemon.request("save").isOK)
                let state = try String(contentsOfFile: daemon.directory.file("state"), encoding: .utf8)
                #expect(
                    state.contains("value mine/mode on") && state.contains("value other/name y"), "\(state)")

                try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
                #expect(try daemon.request("reload").isOK)
                #expect(try value(daemon, "mine/mode") == "on")
                #expect(try value(daemon, "other/name") == "y")
            }
        }
    }

    /// A link planted where a fixed temporary name would be is never written through.
    @Test func aLinkBesideTheStateFileIsNotFollowed() async throws {
        let directory = try TempDirectory()
        let victim = directory.file("victim")
        try "untouched\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let stateDirectory = directory.file("st")
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: false)
        let state = stateDirectory + "/state"
        #expect(symlink(victim, state + ".tmp") == 0)
        try await withDaemon(arguments: ["--state", state], directory: directory) { daemon throws in
            #expect(try daemon.request("set settings/hostname planted").isOK)
            #expect(try daemon.request("save").isOK)
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched\n")
        var info = stat()
        #expect(lstat(state, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(
            try String(contentsOfFile: state, encoding: .utf8).contains("value settings/hostname planted"))
        // Only the planted link and the state itself: no temporary file left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: stateDirectory).sorted() == [
                "state", "state.tmp",
            ])
    }
}
