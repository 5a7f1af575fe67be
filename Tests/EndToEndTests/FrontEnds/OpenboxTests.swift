import Foundation
import TestSupport
import Testing

/// `menuctl render --format openbox` as the root menu of a real openbox under Xvfb,
/// through contrib/openbox/menu.xml: the pointer opens submenus and clicks entries,
/// and `menuctl get` shows what they did.
@Suite(.serialized, .ownThread) struct OpenboxTests {
    @Test(.enabled(if: XTools.shouldRun(OpenboxDesktop.programs)))
    func clicksFlipSetAndPick() async throws {
        try XTools.require(OpenboxDesktop.programs)
        try await withDaemon(config: TestPaths.fixture("example-static.yaml")) { daemon in
            try await withXSession { x in
                let desktop = try await OpenboxDesktop.start(x, daemon)
                try await desktop.flipSetAndPick(in: daemon, name: "openbox")
                #expect(!desktop.log.contains("pipe-menu"), "openbox log: \(desktop.log)")
            }
        }
    }
}

extension OpenboxTests {
    /// The socket given to `render` is carried into every entry's command, escaped for
    /// openbox's parser: here one whose directory holds a space, quotes, a `~` (which
    /// openbox expands at a word's start) and a `$`.
    @Test(.enabled(if: XTools.shouldRun(OpenboxDesktop.programs)))
    func aSocketWithShellSyntaxIsCarriedIntoTheCommands() async throws {
        try XTools.require(OpenboxDesktop.programs)
        let directory = try TempDirectory()
        let socket = directory.file(NativeMenuFormatTests.awkwardSocketDirectory + "/socket")
        let daemon = try TestDaemon(
            directory: directory, config: TestPaths.fixture("example-static.yaml"), socketPath: socket)
        try await daemon.whileRunning { daemon in
            try await withXSession { x in
                // openbox splits the pipe menu's own command as a shell would, but first
                // puts the home folder for a ~ after a blank, quoted or not: every
                // character but letters, digits and / escaped with a backslash.
                let execute = [TestPaths.menuctl, "--socket", socket, "render", "--format", "openbox"].map {
                    $0.map { $0.isLetter || $0.isNumber || $0 == "/" ? String($0) : "\\" + String($0) }
                        .joined()
                }.joined(separator: " ")
                let menu = x.directory.file("menu.xml")
                try """
                <?xml version="1.0" encoding="UTF-8"?>
                <openbox_menu xmlns="http://openbox.org/3.4/menu">
                  <menu id="root-menu" label="menud" execute="\(execute.replacing("&", with: "&amp;").replacing("\"", with: "&quot;"))"/>
                </openbox_menu>
                """.write(toFile: menu, atomically: true, encoding: .utf8)
                let desktop = try await OpenboxDesktop.start(x, daemon, menu: menu)
                try await desktop.choose([1, 0, 0], counts: [4, 3, 2])
                try await waitUntil("openbox to flip Wi-Fi; its log: \(desktop.log)") {
                    try daemon.value(of: "settings/network/wifi") == "off"
                }
            }
        }
    }
}
