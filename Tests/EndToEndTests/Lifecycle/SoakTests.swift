import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// A bounded soak of the whole daemon: clients change the menu at random, with
/// batches and bad requests among them, while the config is rewritten (validly and
/// brokenly) and SIGHUP is sent; subscribers follow from their events alone. At rest
/// every subscriber's picture equals the daemon's, the daemon is alive, and its memory
/// has not grown without bound.
@Suite(.ownThread) struct SoakTests {
    static let clients = 12
    static let subscribers = 8
    /// The storm lasts as long as the config's rewrites: 40, 200 ms apart. Each client
    /// stops then, or after this many requests or ``storm``, whichever comes first.
    /// Clients and the rewriter run on threads of their own with their own bounds: the
    /// test's task can be held up by other tests holding the cooperative pool's few
    /// threads (a sanitized run, 2 cores), and the storm must end regardless.
    static let rewrites = 40
    static let rewriteInterval = 0.2
    static let storm = Duration.seconds(8)
    static let requestsPerClient = 200_000
    /// Microseconds each client waits between requests under a sanitizer. The
    /// subscribers parse every event in this process, which a sanitizer (with 20
    /// threads on the machine's cores) slows to a few hundred event groups a second,
    /// far below what the daemon sends at full speed; they would fall a mebibyte
    /// behind and be dropped, as the daemon must (the subscriber bound,
    /// HostileClientTests), or not catch up before the test gives up waiting.
    static let sanitizedPause: UInt32? = SanitizerReport.isSanitizedRun ? 10_000 : nil

    /// The menu: exclusive and plain groups, every kind of value.
    static let configA = """
        menu:
          - id: g1
            title: G1
            exclusive: true
            children:
              - id: a
                title: A
                children:
                  - {id: t, title: "T: {value}", type: toggle, value: on}
                  - {id: x, title: X, exec: "true"}
              - id: b
                title: B
                children:
                  - {id: r, title: "R {value}", type: range, min: 0, max: 100, step: 5, value: 50}
          - id: g2
            title: G2
            children:
              - {id: name, title: "Name: {value}", type: text, value: n}
              - id: c
                title: "C: {value}"
                options: [one, two, three]
                value: one
              - id: sub
                title: Sub
                children:
                  - {id: t2, title: T2, type: toggle, value: off}
                  - {id: day, title: Day, type: date, value: 2026-01-01}

        """
    /// A with leaves added, so a reload both adds and removes rows.
    static let configB = configA.replacingOccurrences(
        of: "          - {id: t2, title: T2, type: toggle, value: off}\n",
        with:
            "          - {id: t2, title: T2, type: toggle, value: off}\n          - {id: extra, title: Extra, type: toggle, value: on}\n          - {id: more, title: More, type: text, value: m}\n"
    )
    static let broken = "menu:\n  - id: g1\n    titel: G1\n"

    static let groups = ["g1", "g1/a", "g1/b", "g2", "g2/sub", "g2/c"]
    static let sets: [(String, [String])] = [
        ("g1/a/t", ["on", "off"]), ("g1/b/r", ["0", "5", "50", "95", "100"]), ("g2/name", ["x", "y z", "é"]),
        ("g2/c", ["one", "two", "three"]), ("g2/sub/t2", ["on", "off"]),
        ("g2/sub/day", ["2026-02-03", "1999-12-31"]),
        ("g2/sub/extra", ["on", "off"]),
    ]
    static let bad = [
        "frobnicate", "get", "get nope/nothing", "set g1/b/r 7", "set g1/b/r lots", "toggle g1/a/t/deeper",
        "end",
        "set g2/sub/day 2026-13-01", "begin\nset g1/a/t maybe\nend", String(repeating: "x", count: 70_000),
    ]

    /// One random request line (or a batch of lines), as a client would send it.
    static func randomRequest(_ random: inout SystemRandomNumberGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3: return "toggle " + groups.randomElement(using: &random)!
        case 3..<6:
            let (path, values) = sets.randomElement(using: &random)!
            return "set \(path) \(ProtocolWords.quote(values.randomElement(using: &random)!))"
        case 6..<8:
            var lines = ["begin"]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let (path, values) = sets.randomElement(using: &random)!
                lines.append(
                    Bool.random(using: &random)
                        ? "toggle " + groups.randomElement(using: &random)!
                        : "set \(path) \(ProtocolWords.quote(values.randomElement(using: &random)!))")
            }
            return (lines + ["end"]).joined(separator: "\n")
        default: return bad.randomElement(using: &random)!
        }
    }

    /// What a subscriber knows from the tree it read once and the events since.
    struct Picture: Equatable {
        var expanded: [String: Bool] = [:]
        var values: [String: String] = [:]
        var visibleRows = 0

        init(tree: [String]) {
            for line in tree {
                let f = ProtocolFields.fields(of: line).map { ProtocolFields.unescape(Substring($0)) }
                guard f.count >= 9, f[0] == "row" else { continue }
                if f[4] == "expanded" || f[4] == "collapsed" { expanded[f[6]] = f[4] == "expanded" }
                values[f[6]] = f[7]
                if f[1] != "-" { visibleRows += 1 }
            }
        }

        mutating func apply(event line: String) {
            let f = ProtocolFields.fields(of: line).map { ProtocolFields.unescape(Substring($0)) }
            guard f.count >= 3, f[0] == "event" else { return }
            switch f[2] {
            case "splice" where f.count == 6: visibleRows += Int(f[5])! - Int(f[4])!
            case "expansion" where f.count == 5: expanded[f[3]] = f[4] == "expanded"
            case "value" where f.count == 5: values[f[3]] = f[4]
            default: break
            }
        }

        /// Whether this picture agrees with the daemon's on every node the daemon has
        /// now (nodes a reload removed may linger here).
        func agrees(with daemon: Picture) -> Bool {
            visibleRows == daemon.visibleRows
                && daemon.expanded.allSatisfy { expanded[$0.key] == $0.value }
                && daemon.values.allSatisfy { values[$0.key] == $0.value }
        }
    }

    /// Reads replies and events on a subscribed connection until the reply to the
    /// final `ping`.
    final class Subscriber: @unchecked Sendable {
        let connection: UnixSocketConnection
        var picture: Picture?
        var failure: String?
        var groups = 0

        init(socket: String) throws {
            connection = try UnixSocketConnection.connect(path: socket)
            connection.setReceiveTimeout(seconds: 60)
            _ = try connection.readGreeting()
            try connection.send("subscribe\ntree\n")
        }

        /// Runs on its own thread until `ping`'s reply. Events that come before the
        /// tree's reply are already in the tree.
        func follow() {
            do {
                guard try connection.readReply().isOK else {
                    failure = "subscribe refused"
                    return
                }
                var lines: [String] = []
                while let line = try connection.readLine() {
                    if line.hasPrefix("event\t") { continue }
                    if ProtocolReply.isTerminator(line) { break }
                    lines.append(line)
                }
                var picture = Picture(tree: lines)
                while let line = try connection.readLine() {
                    if line.hasPrefix("event\t") {
                        picture.apply(event: line)
                        if line.hasSuffix("\tend") { groups += 1 }
                    } else if ProtocolReply.isTerminator(line) {
                        self.picture = picture
                        return
                    }
                }
                failure = "the daemon closed the connection"
            } catch {
                failure = "\(error)"
            }
        }
    }

    static func rss(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    @Test func subscribersAgreeWithTheDaemonAfterAStorm() async throws {
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        try Self.configA.write(toFile: config, atomically: false, encoding: .utf8)
        try await withDaemon(config: config, directory: directory, watch: true) { daemon in
            try await waitUntil("the watcher to start") { daemon.log.contains("watching") }
            let subscribers = try (0..<Self.subscribers).map { _ in try Subscriber(socket: daemon.socketPath)
            }
            let followers = subscribers.map { subscriber in
                Thread { subscriber.follow() }
            }
            for follower in followers { follower.start() }
            // Warm up, then take the memory to compare with.
            _ = try daemon.request("toggle g1")
            let rssBefore = Self.rss(of: daemon.pid)

            let done = DispatchGroup()
            let stop = Flag()
            let errors = Errors()
            let deadline = ContinuousClock.now + Self.storm
            for _ in 0..<Self.clients {
                done.enter()
                let socket = daemon.socketPath
                Thread {
                    defer { done.leave() }
                    do {
                        var random = SystemRandomNumberGenerator()
                        let connection = try UnixSocketConnection.connect(path: socket)
                        connection.setReceiveTimeout(seconds: 60)
                        _ = try connection.readGreeting()
                        for _ in 0..<Self.requestsPerClient
                        where !stop.isSet && ContinuousClock.now < deadline {
                            let request = Self.randomRequest(&random)
                            try connection.send(request + "\n")
                            // A batch answers once, at `end`; every other line once each.
                            let answers =
                                request.hasPrefix("begin") ? 1 : request.split(separator: "\n").count
                            for _ in 0..<answers { _ = try connection.readReply() }
                            if let pause = Self.sanitizedPause { usleep(pause) }
                        }
                    } catch {
                        errors.add("client: \(error)")
                    }
                }.start()
            }
            // The config changes meanwhile, on disk (the watch) and by SIGHUP.
            done.enter()
            let daemonPID = daemon.pid
            Thread {
                defer { done.leave() }
                for rewrite in 0..<Self.rewrites {
                    let text = [Self.configA, Self.configB, Self.broken][rewrite % 3]
                    do {
                        try text.write(toFile: config, atomically: rewrite % 2 == 0, encoding: .utf8)
                    } catch {
                        errors.add("rewrite: \(error)")
                    }
                    if rewrite % 4 == 3 { kill(daemonPID, SIGHUP) }
                    Thread.sleep(forTimeInterval: Self.rewriteInterval)
                }
                stop.set()
            }.start()
            // Their reads give up after a minute; the bound only turns a hang into a failure.
            try await waitUntil("the storm's clients and the rewrites to finish", seconds: 300) {
                done.wait(timeout: .now()) == .success
            }
            // At rest: a valid config, loaded.
            try Self.configB.write(toFile: config, atomically: true, encoding: .utf8)
            #expect(try daemon.request("reload").isOK)
            #expect(errors.all.isEmpty, "\(errors.all)")

            for subscriber in subscribers { try subscriber.connection.send("ping\n") }
            try await waitUntil("every subscriber to read up to its ping") {
                followers.allSatisfy { $0.isFinished }
            }
            let tree = try daemon.request("tree")
            #expect(tree.isOK)
            let truth = Picture(tree: tree.lines)
            #expect(truth.values["g2/sub/extra"] != nil, "configB is served")
            for (i, subscriber) in subscribers.enumerated() {
                #expect(subscriber.failure == nil, "subscriber \(i): \(subscriber.failure ?? "")")
                #expect(subscriber.groups > Self.clients, "subscriber \(i) heard the storm")
                let picture = try #require(subscriber.picture)
                #expect(picture.agrees(with: truth), "subscriber \(i): \(picture) against \(truth)")
            }
            #expect(daemon.process.isRunning, "menud is alive; log: \(daemon.log)")
            let rssAfter = Self.rss(of: daemon.pid)
            // Bounded, not equal: allocators keep freed pages, and buffers grow once.
            if !SanitizerReport.isSanitizedRun {
                #expect(
                    rssAfter < max(2 * rssBefore, rssBefore + 64 * 1024),
                    "RSS \(rssBefore) kB → \(rssAfter) kB")
            }
        }
    }
}

/// Set once, read from the client threads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Errors collected from the client threads.
final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ error: String) { lock.withLock { list.append(error) } }
    var all: [String] { lock.withLock { list } }
}
