import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// What the popup's tests do to it and read back: start it on an X server, press
/// keys at it, and read the daemon's word on a node or a subscriber's events.
enum Popup {
    /// What the popup's tests need on the machine beside the popup.
    static let programs = ["Xvfb", "xdotool"]

    /// Runs `body` with a daemon serving `menu` and an X server of its own: what
    /// every popup test stands on.
    static func withSession(_ menu: String, _ body: (TestDaemon, XSession) async throws -> Void)
        async throws
    {
        try XTools.require(programs)
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                try await withXSession { x in try await body(daemon, x) }
            }
        }
    }

    /// The path of the daemon's focused node, as `menuctl focused` has it.
    static func focused(_ daemon: TestDaemon) throws -> String {
        let line = try daemon.menuctl(["--raw", "focused"]).stdout.trimmingCharacters(in: .newlines)
        let fields = ProtocolFields.fields(of: line)
        return fields.count > 2 ? fields[2] : ""
    }

    /// Starts the popup at the screen's top left corner and waits for its window;
    /// returns the process and the window's geometry.
    static func start(_ x: XSession, _ daemon: TestDaemon, _ arguments: [String] = []) async throws
        -> (popup: BackgroundProcess, frame: (x: Int, y: Int, width: Int, height: Int))
    {
        let popup = try x.start(
            TestPaths.popup, ["--at", "0,0"] + arguments, environment: x.environment(daemon))
        let ids = try await x.waitForWindow(class: "menud-popup", from: popup)
        let id = try #require(ids.first?.split(separator: ":").first.map(String.init))
        return (popup, try frame(x, id))
    }

    /// The geometry of the X window `id`.
    static func frame(_ x: XSession, _ id: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let shell = try x.run("xdotool", ["getwindowgeometry", "--shell", id]).stdout
        var fields: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Int(pair[1]) { fields[String(pair[0])] = value }
        }
        return (fields["X"] ?? 0, fields["Y"] ?? 0, fields["WIDTH"] ?? 0, fields["HEIGHT"] ?? 0)
    }

    /// The popup's window geometry now.
    static func shownFrame(_ x: XSession) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let found = try x.run("xdotool", ["search", "--onlyvisible", "--class", "menud-popup"]).stdout
        let id = try #require(found.split(separator: "\n").last.map(String.init))
        return try frame(x, id)
    }

    /// The popup's window height now: it grows as rows show, and shrinks as they go.
    static func height(_ x: XSession) throws -> Int { try shownFrame(x).height }

    static func key(_ x: XSession, _ name: String) throws {
        #expect(try x.run("xdotool", ["key", name]).status == 0)
    }

    static func field(_ daemon: TestDaemon, _ path: String, _ index: Int) throws -> String {
        let fields = ProtocolFields.fields(
            of: try daemon.menuctl(["--raw", "get", path]).stdout.trimmingCharacters(in: .newlines))
        return fields.count > index ? fields[index] : ""
    }

    static func value(_ daemon: TestDaemon, _ path: String) throws -> String { try field(daemon, path, 7) }

    /// Reads event groups until one holds `record`, which a subscriber then has seen.
    static func expectEvent(_ events: UnixSocketConnection, _ record: String) throws {
        var seen: [String] = []
        while true {
            let group = try events.readEventGroup()
            seen += group.records
            if group.records.contains(record) { return }
            if seen.count > 200 { throw TimedOut(description: "no '\(record)' among \(seen)") }
        }
    }
}
