import Foundation
import MenuApplications
import TestSupport
import Testing

/// Finding the entries in the `applications` directories: ids, overrides, and files
/// that are skipped without affecting the others.
@Suite struct ApplicationScanTests {
    @Test func directoriesComeFromTheXDGVariables() {
        let environment = ApplicationEnvironment(environment: [
            "HOME": "/home/u", "XDG_DATA_DIRS": "/opt/share/:relative:/usr/share:/opt/share",
        ])
        #expect(
            environment.directories == [
                "/home/u/.local/share/applications", "/opt/share/applications", "/usr/share/applications",
            ])
        let defaults = ApplicationEnvironment(environment: ["XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": ""])
        #expect(
            defaults.directories == [
                "/d/applications", "/usr/local/share/applications", "/usr/share/applications",
            ])
        #expect(
            ApplicationEnvironment(environment: ["XDG_CURRENT_DESKTOP": "sway:wlroots"]).desktops == [
                "sway", "wlroots",
            ])
    }

    @Test func idsComeFromPathsAndEarlierDirectoriesWin() throws {
        let top = try TempDirectory()
        let home = top.file("home")
        let system = top.file("system")
        try Fixture.write(Fixture.application("Home Editor"), at: "editor.desktop", in: home)
        try Fixture.write(Fixture.application("System Editor"), at: "editor.desktop", in: system)
        try Fixture.write(Fixture.application("Nested"), at: "kde/konsole.desktop", in: system)
        try Fixture.write(Fixture.application("Flat"), at: "kde-konsole.desktop", in: home)
        try Fixture.write(Fixture.application("Hidden"), at: "gone.desktop", in: home)
        try Fixture.write(Fixture.application("Gone", ["Hidden=true"]), at: "gone.desktop", in: home)
        try Fixture.write(Fixture.application("Still there"), at: "gone.desktop", in: system)
        try Fixture.write("not a desktop file", at: "notes.txt", in: home)
        let scan = ApplicationScan(Fixture.environment([home, system]))
        let names = Dictionary(uniqueKeysWithValues: scan.entries.map { ($0.id, $0.name) })
        #expect(names == ["editor.desktop": "Home Editor", "kde-konsole.desktop": "Flat"])
        #expect(scan.problems.isEmpty)
        #expect(Set(scan.directories) == [home, system, system + "/kde"])
    }

    @Test func entriesAreLookedForSoDeepAndNoDeeper() throws {
        let top = try TempDirectory()
        let deepest = (1..<ApplicationScan.depthLimit).map { "d\($0)" }.joined(separator: "/")
        try Fixture.write(Fixture.application("Deep"), at: deepest + "/deep.desktop", in: top.path)
        try Fixture.write(Fixture.application("Too deep"), at: deepest + "/more/deeper.desktop", in: top.path)
        let scan = ApplicationScan(Fixture.environment([top.path]))
        #expect(scan.entries.map(\.name) == ["Deep"])
        #expect(scan.entries.first?.id == deepest.replacing("/", with: "-") + "-deep.desktop")
        #expect(scan.problems.isEmpty)
    }

    @Test func missingDirectoriesAreNoProblem() {
        let scan = ApplicationScan(Fixture.environment(["/no/such/applications"]))
        #expect(scan.entries.isEmpty && scan.problems.isEmpty && scan.directories.isEmpty)
    }

    @Test func badFilesAreSkippedOneLineEachAndTheRestShown() throws {
        let top = try TempDirectory()
        let apps = top.path
        try Fixture.write(Fixture.application("Good"), at: "good.desktop", in: apps)
        try Fixture.write(
            "[Desktop Entry]\nType=Application\nName=Bad\nExec=bad\ngarbage\n", at: "malformed.desktop",
            in: apps)
        let huge =
            Fixture.application("Huge") + "X-Padding=" + String(repeating: "x", count: DesktopEntry.sizeLimit)
            + "\n"
        try Fixture.write(huge, at: "huge.desktop", in: apps)
        var invalid = Array(Fixture.application("Bad").utf8)
        invalid.insert(0xc3, at: 40)
        try Data(invalid).write(to: URL(fileURLWithPath: top.file("invalid.desktop")))
        try FileManager.default.createSymbolicLink(
            atPath: top.file("loop-a.desktop"), withDestinationPath: top.file("loop-b.desktop"))
        try FileManager.default.createSymbolicLink(
            atPath: top.file("loop-b.desktop"), withDestinationPath: top.file("loop-a.desktop"))
        try FileManager.default.createDirectory(atPath: top.file("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: top.file("sub/up"), withDestinationPath: apps)
        #expect(mkfifo(top.file("fifo.desktop"), 0o600) == 0)
        try Fixture.write(Fixture.application("Braces {value} $(touch x)"), at: "braces.desktop", in: apps)

        let scan = ApplicationScan(Fixture.environment([apps]))
        #expect(Set(scan.entries.map(\.name)) == ["Good", "Braces {value} $(touch x)"])
        let problems = scan.problems.sorted()
        #expect(problems.count == 7, "\(problems)")
        func problem(_ name: String) -> String? { problems.first { $0.hasPrefix(top.file(name) + ":") } }
        #expect(
            problem("malformed.desktop")?.contains("line 5: neither a key, a group nor a comment") == true)
        #expect(problem("huge.desktop")?.contains("larger than 1 MiB") == true)
        #expect(problem("invalid.desktop")?.contains("not UTF-8") == true)
        #expect(problem("loop-a.desktop")?.contains("symbolic links") == true)
        #expect(problem("loop-b.desktop")?.contains("symbolic links") == true)
        #expect(problem("fifo.desktop")?.contains("not a regular file") == true)
        #expect(problem("sub/up")?.contains("symlink loop") == true)
        #expect(scan.problems.allSatisfy { !$0.contains("\n") })
    }

    @Test func aFileNameWithAControlCharacterStaysOnOneLogLine() throws {
        let top = try TempDirectory()
        try Fixture.write("garbage\n", at: "new\nline.desktop", in: top.path)
        let scan = ApplicationScan(Fixture.environment([top.path]))
        #expect(
            scan.problems == [
                top.file("new?line.desktop") + ": line 1: neither a key, a group nor a comment; skipped"
            ])
    }
}
