import Foundation
import TestSupport
import Testing

/// `menuctl render --format jgmenu` in a real jgmenu under Xvfb, through
/// contrib/jgmenu/jgmenurc: the pointer opens submenus and clicks entries, and
/// `menuctl get` shows what they did.
@Suite(.serialized, .ownThread) struct JgmenuTests {
    @Test(.enabled(if: XTools.shouldRun(JgmenuLauncher.programs)))
    func clicksFlipSetAndPick() async throws {
        try XTools.require(JgmenuLauncher.programs)
        try await withDaemon(config: TestPaths.fixture("example-static.yaml")) { daemon in
            try await withXSession { x in
                let jgmenu = try JgmenuLauncher(x, daemon)
                try await jgmenu.flipSetAndPick(in: daemon, name: "jgmenu")
            }
        }
    }
}

extension JgmenuTests {
    /// The socket given to `render` is carried into every entry's command, quoted for
    /// the shell jgmenu runs it with and for jgmenu's CSV: here one whose directory
    /// holds a space, a comma, quotes, a `~` and a `$`.
    @Test(.enabled(if: XTools.shouldRun(JgmenuLauncher.programs)))
    func aSocketWithShellSyntaxIsCarriedIntoTheCommands() async throws {
        try XTools.require(JgmenuLauncher.programs)
        let directory = try TempDirectory()
        let socket = directory.file(NativeMenuFormatTests.awkwardSocketDirectory + "/socket")
        let daemon = try TestDaemon(
            directory: directory, config: TestPaths.fixture("example-static.yaml"), socketPath: socket)
        try await daemon.whileRunning { daemon in
            try await withXSession { x in
                let command = [TestPaths.menuctl, "--socket", socket, "render", "--format", "jgmenu"]
                    .map { "'" + $0.replacing("'", with: #"'\''"#) + "'" }.joined(separator: " ")
                let jgmenu = try JgmenuLauncher(x, daemon, command: command)
                try await jgmenu.choose([1, 0, 0], counts: [4, 3, 2])
                try await waitUntil("jgmenu to flip Wi-Fi; its log: \(jgmenu.log)") {
                    try daemon.value(of: "settings/network/wifi") == "off"
                }
            }
        }
    }
}
