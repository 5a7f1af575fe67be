import Foundation
import MenuApplications
import TestSupport

/// Desktop entries written for a test, and the environment that finds them.
enum Fixture {
    /// `text` read as the entry `app.desktop`.
    static func entry(_ text: String, locale: DesktopLocale = DesktopLocale(nil)) throws -> DesktopEntry {
        try bytes(Array(text.utf8), locale: locale)
    }

    static func bytes(_ bytes: [UInt8], locale: DesktopLocale = DesktopLocale(nil)) throws -> DesktopEntry {
        try bytes.withUnsafeBufferPointer {
            try DesktopEntry.read($0, id: "app.desktop", file: "/apps/app.desktop", locale: locale)
        }
    }

    /// An application's entry with `extra` lines after its Type, Name and Exec.
    static func application(_ name: String, exec: String = "true", _ extra: [String] = []) -> String {
        (["[Desktop Entry]", "Type=Application", "Name=\(name)", "Exec=\(exec)"] + extra).joined(
            separator: "\n")
            + "\n"
    }

    /// Writes `text` at `path` below `directory`, making the directories on the way.
    static func write(_ text: String, at path: String, in directory: String) throws {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// An environment of `directories` only, in `desktops`, with `path` for TryExec.
    static func environment(
        _ directories: [String], desktops: [String] = [], path: [String] = ["/usr/bin", "/bin"]
    ) -> ApplicationEnvironment {
        ApplicationEnvironment(
            directories: directories, locale: DesktopLocale(nil), desktops: desktops, path: path)
    }
}
