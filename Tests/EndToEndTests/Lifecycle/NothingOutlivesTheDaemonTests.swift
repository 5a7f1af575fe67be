import Foundation
import TestSupport
import Testing

/// The commands that end with the daemon (a `value-listen`, a `value-cmd`, a
/// `children-cmd`) end with it however it ends: after a SIGKILL, which runs none of
/// its code, none of them is left, not the one that ignores SIGTERM and not what
/// they started. An `exec` item's program is the user's, and goes on; so does an
/// `on-change` hook that is applying a value, as it does when the daemon stops.
@Suite(.ownThread) struct NothingOutlivesTheDaemonTests {
    /// Each command sleeps for a number no other process has, to be found by.
    static func menu(_ mark: Int, _ directory: TempDirectory) -> String {
        """
        menu:
          - id: live
            title: Live
            children:
              - id: listener
                title: "Listen {value}"
                type: toggle
                value-listen: >-
                  trap '' TERM; sleep \(mark + 1) & sleep \(mark + 2); wait
              - id: reader
                title: "Read {value}"
                type: toggle
                value-cmd: sleep \(mark + 3)
              - id: hook
                title: Hook
                type: toggle
                on-change: sleep \(mark + 4)
              - id: app
                title: App
                exec: sleep \(mark + 5)
          - id: kids
            title: Kids
            children-cmd: sleep \(mark + 6)
        """
    }

    /// The processes whose command line names `mark`'s sleeps, by which one.
    static func sleeping(_ mark: Int) -> [Int: [Int32]] {
        var found: [Int: [Int32]] = [:]
        for entry in ProcessEntry.all() where entry.isLiving {
            guard
                let line = try? String(contentsOfFile: "/proc/\(entry.pid)/cmdline", encoding: .utf8)
            else { continue }
            let words = line.split(separator: "\0")
            for k in 1...6 where words.contains(Substring(String(mark + k))) {
                found[k, default: []].append(entry.pid)
            }
        }
        return found
    }

    @Test func aKilledDaemonLeavesNoneOfItsCommands() async throws {
        // Far from any number a real sleep would be given.
        let mark = 7_000_000 + Int(getpid()) * 10
        let directory = try TempDirectory()
        try await withConfigFile(Self.menu(mark, directory)) { config in
            try await withDaemon(config: config) { daemon in
                #expect(try daemon.menuctl(["set", "live/hook", "on"]).status == 0)
                #expect(try daemon.menuctl(["activate", "live/app"]).status == 0)
                // Opening the group waits for its children: sent, not waited for.
                let opener = try daemon.connect()
                try opener.send("expand kids\n")
                try await waitUntil("every command to run") {
                    Set(Self.sleeping(mark).keys) == Set(1...6)
                }
                daemon.kill()
                let going = (Self.sleeping(mark)[4] ?? []) + (Self.sleeping(mark)[5] ?? [])
                defer { for pid in going { kill(pid, SIGKILL) } }
                // The hook may have met its own timeout meanwhile; the item runs on.
                try await waitUntil("the daemon's commands to end with it: \(Self.sleeping(mark))") {
                    let left = Set(Self.sleeping(mark).keys)
                    return left.isSubset(of: [4, 5]) && left.contains(5)
                }
            }
        }
    }

    /// A listener that ignores SIGTERM, and what it started, end when the daemon
    /// stops as it should too.
    @Test func aStoppedDaemonLeavesNoListenerThatIgnoresSIGTERM() async throws {
        let mark = 8_000_000 + Int(getpid()) * 10
        let directory = try TempDirectory()
        try await withConfigFile(Self.menu(mark, directory)) { config in
            try await withDaemon(config: config) { daemon in
                try await waitUntil("the listener to run") {
                    Self.sleeping(mark)[1] != nil && Self.sleeping(mark)[2] != nil
                }
                await daemon.stop()
                try await waitUntil("the listener to end: \(Self.sleeping(mark))") {
                    Self.sleeping(mark)[1] == nil && Self.sleeping(mark)[2] == nil
                }
            }
        }
    }
}
