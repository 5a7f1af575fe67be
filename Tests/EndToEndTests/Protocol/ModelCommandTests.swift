import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// The menu commands against the fixture menu (Fixtures/menu.yaml).
@Suite(.ownThread) struct ModelCommandTests {
    private func rows(_ reply: ProtocolReply) -> [RowRecord] {
        reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
    }

    @Test func readCommands() async throws {
        try await withDaemon { daemon in
            let all = rows(try daemon.request("rows"))
            #expect(
                all.map(\.path) == [
                    "apps", "settings", "settings/wifi", "settings/theme", "settings/hostname", "power",
                ])
            #expect(all.map(\.index) == Array(0..<6))

            let tree = rows(try daemon.request("tree"))
            #expect(tree.count == 12)
            #expect(tree.first { $0.path == "settings/theme/Dark" }?.state == "selected")
            #expect(tree.first { $0.path == "apps/term" }?.index == nil)

            let subtree = rows(try daemon.request("rows settings"))
            #expect(
                subtree.map(\.path) == ["settings", "settings/wifi", "settings/theme", "settings/hostname"])

            #expect(rows(try daemon.request("row 5")).first?.path == "power")
            #expect(rows(try daemon.request("get settings/theme")).first?.value == "Dark")
        }
    }

    @Test func expansionCommands() async throws {
        try await withDaemon { daemon in
            let expanded = try daemon.request("expand power --recursive")
            #expect(expanded.lines.contains("expansion\tpower/session\texpanded"))
            #expect(rows(try daemon.request("rows")).count == 8)

            let collapsed = try daemon.request("collapse power")
            #expect(collapsed.lines == ["splice\t6\t2\t0", "expansion\tpower\tcollapsed"])
            #expect(rows(try daemon.request("get power/session")).first?.state == "expanded")

            #expect(try daemon.request("toggle power").lines.first == "splice\t6\t0\t2")
            #expect(
                try daemon.request("toggle power --recursive").lines.contains(
                    "expansion\tpower/session\tcollapsed"))

            #expect(try daemon.request("expand-all").isOK)
            #expect(rows(try daemon.request("rows")).count == 12)
            #expect(
                try daemon.request("collapse-all settings").lines.contains("expansion\tsettings\tcollapsed"))
            #expect(try daemon.request("collapse-all").isOK)
            #expect(rows(try daemon.request("rows")).count == 3)

            #expect(try daemon.request("expand-to power/session/lock").isOK)
            #expect(rows(try daemon.request("get power/session/lock")).first?.index != nil)
            // Nothing to change is still OK, with no change records.
            #expect(try daemon.request("expand power") == ProtocolReply(lines: [], terminator: "OK"))
        }
    }

    @Test func setAndActivateValues() async throws {
        try await withDaemon { daemon in
            #expect(try daemon.request("set settings/wifi off").lines == ["value\tsettings/wifi\toff"])
            #expect(rows(try daemon.request("get settings/wifi")).first?.title == "Wi-Fi: off")
            let picked = try daemon.request("activate settings/theme/Light")
            #expect(picked.lines.first == "activated\tsettings/theme/Light\tpicked")
            #expect(rows(try daemon.request("get settings/theme")).first?.value == "Light")
            #expect(try daemon.request("activate power").lines.first == "activated\tpower\ttoggled")
        }
    }

    /// The verbs as an mpc user reads them: `toggle` flips a toggle node (and still
    /// opens and closes a group), and `set` names a choice's option by its title in
    /// any case, as a `value-cmd`'s line may.
    @Test func toggleFlipsAToggleAndSetTakesAnOptionsTitle() async throws {
        try await withDaemon { daemon in
            #expect(try daemon.request("toggle settings/wifi").lines == ["value\tsettings/wifi\toff"])
            let flipped = try daemon.menuctl(["toggle", "settings/wifi"])
            #expect(flipped.status == 0 && flipped.stdout == "Wi-Fi: on\n", "\(flipped)")
            #expect(try daemon.request("toggle apps").lines.contains("expansion\tapps\texpanded"))
            #expect(try daemon.request("toggle settings/hostname").errorCode == "not-expandable")

            #expect(try daemon.request("set settings/theme light").lines == ["value\tsettings/theme\tLight"])
            let picked = try daemon.menuctl(["set", "settings/theme", "DARK"])
            #expect(picked.status == 0 && picked.stdout == "▸ Theme: Dark (2 rows)\n", "\(picked)")
            #expect(try daemon.request("set settings/theme Dusk").errorCode == "invalid-value")
        }
    }

    @Test func batchIsAllOrNothingAndNamesTheFailingRequest() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.send("begin\nexpand apps\nset settings/wifi off\nget nowhere\nping\nend\n")
            let failed = try connection.readReply()
            #expect(failed.terminator.hasPrefix("ERR batch-failed 3: no-such-node "), "\(failed)")
            try connection.send("rows\n")
            #expect(rows(try connection.readReply()).count == 6)
            #expect(rows(try daemon.request("get settings/wifi")).first?.value == "on")

            try connection.send("begin\nfrobnicate\nend\nbegin\nexpand apps\nclose\nend\n")
            #expect(try connection.readReply().terminator.hasPrefix("ERR batch-failed 1: unknown-command "))
            #expect(try connection.readReply().terminator.hasPrefix("ERR batch-failed 2: not-batchable "))

            try connection.send("begin\nexpand apps\nget apps/term\nset settings/wifi off\nend\n")
            let ok = try connection.readReply()
            #expect(ok.isOK)
            #expect(ok.lines.first?.hasPrefix("row\t1\t1\titem") == true, "\(ok)")
            #expect(ok.lines.contains("expansion\tapps\texpanded"))
            #expect(ok.lines.contains("value\tsettings/wifi\toff"))
        }
    }

    @Test func activateRunsTheItemDetachedAndReapsIt() async throws {
        try await withDaemon { daemon in
            let reply = try daemon.request("activate apps/term")
            let fields = ProtocolFields.fields(of: try #require(reply.lines.first))
            #expect(fields[0] == "ran")
            let pid = try #require(Int32(fields[1]))
            #expect(fields[2].hasPrefix("cut "))

            let marker = daemon.directory.file("activated")
            try await waitUntil("the item's command to write \(marker)") {
                let text = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
                return text.hasSuffix("\n")
            }
            // Its session id is its own pid: it was started in a session of its own.
            let session = try String(contentsOfFile: marker, encoding: .utf8)
            #expect(session.trimmingCharacters(in: .whitespacesAndNewlines) == String(pid))
            // Reaped: a zombie would keep /proc/PID until menud waited for it.
            try await waitUntil("menud to reap pid \(pid)") {
                !FileManager.default.fileExists(atPath: "/proc/\(pid)")
            }
            #expect(zombieChildren(of: daemon.pid).isEmpty)
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// 50 clients at once, each interleaving reads with an even number of toggles. Every
    /// reply must be self-consistent whatever the interleaving, and the toggles cancel out.
    @Test func fiftyConcurrentClients() async throws {
        try await withDaemon { daemon in
            let clients = 50
            let rounds = 10
            let problems = Problems()
            let connections = try (0..<clients).map { _ in try daemon.connect() }
            let group = DispatchGroup()
            for (n, connection) in connections.enumerated() {
                group.enter()
                let box = UncheckedBox(connection)
                Thread.detachNewThread {
                    defer { group.leave() }
                    do {
                        try Self.exercise(box.value, client: n, rounds: rounds, problems: problems)
                    } catch {
                        problems.add("client \(n): \(error)")
                    }
                }
            }
            // The test has a thread of its own (.ownThread) to wait on.
            let finished = group.wait(timeout: .now() + 120)
            #expect(finished == .success, "clients did not finish")
            #expect(problems.all.isEmpty, "\(problems.all.prefix(10))")
            #expect(rows(try daemon.request("get apps")).first?.state == "collapsed")
            #expect(rows(try daemon.request("rows")).count == 6)
        }
    }

    private static func exercise(
        _ connection: UnixSocketConnection, client: Int, rounds: Int, problems: Problems
    ) throws {
        for round in 0..<rounds {
            try connection.send("toggle apps\nget settings/wifi\nrows\ntoggle apps\nrow 0\n")
            let toggle1 = try connection.readReply()
            let get = try connection.readReply()
            let all = try connection.readReply()
            let toggle2 = try connection.readReply()
            let row0 = try connection.readReply()
            for toggle in [toggle1, toggle2] {
                let opened = toggle.lines == ["splice\t1\t0\t2", "expansion\tapps\texpanded"]
                let closed = toggle.lines == ["splice\t1\t2\t0", "expansion\tapps\tcollapsed"]
                if !toggle.isOK || !(opened || closed) {
                    problems.add("client \(client) round \(round): \(toggle)")
                }
            }
            if get.lines.count != 1 || !get.lines[0].contains("\tsettings/wifi\ton\t") {
                problems.add("client \(client) get: \(get)")
            }
            let paths = all.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0))?.path }
            let closedPaths = [
                "apps", "settings", "settings/wifi", "settings/theme", "settings/hostname", "power",
            ]
            var openPaths = closedPaths
            openPaths.insert(contentsOf: ["apps/term", "apps/tabbed"], at: 1)
            if !all.isOK || (paths != closedPaths && paths != openPaths) {
                problems.add("client \(client) rows: \(paths)")
            }
            if !row0.isOK || !(row0.lines.first?.hasPrefix("row\t0\t0\tgroup\t") ?? false) {
                problems.add("client \(client) row 0: \(row0)")
            }
        }
    }
}

/// Problems found on the client threads, collected for the test to report.
final class Problems: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ problem: String) { lock.withLock { list.append(problem) } }
    var all: [String] { lock.withLock { list } }
}

/// Hands a connection to the one thread that uses it.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
