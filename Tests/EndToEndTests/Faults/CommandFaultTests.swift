import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// Commands from the config that fail, hang, or print megabytes, against
/// Fixtures/faults.yaml: each is bounded (in time or in what the daemon keeps of its
/// output) and logged, and the daemon leaks neither descriptors nor processes.
@Suite(.ownThread) struct CommandFaultTests {
    private func withFaultDaemon(_ body: (TestDaemon) async throws -> Void) async throws {
        try await withDaemon(
            config: TestPaths.fixture("faults.yaml"), arguments: ["--on-change-timeout", "0.5"], body)
    }

    private func pid(in file: String) throws -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    private func rows(_ reply: ProtocolReply) -> [RowRecord] {
        reply.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
    }

    @Test func aHungOnChangeIsKilledWithItsGroupAndLogged() async throws {
        try await withFaultDaemon { daemon in
            #expect(try daemon.request("ping").isOK)
            // The pool's channel back to the loop (an eventfd) is made at the first job
            // on the pool, and kept: a `find` runs there, so it is counted in `before`.
            // Otherwise the state save that `set` schedules, also on the pool, would
            // add it to the count after, whenever the save came before the count.
            #expect(try daemon.request("find hang").isOK)
            let before = openDescriptors(daemon.pid)
            #expect(try daemon.request("set hooks/hang on").isOK)
            try await waitUntil("the hung hook to be killed; log:\n\(daemon.log)") {
                daemon.log.contains(
                    "on-change hooks/hang: 'echo $$ > hang.pid; exec sleep 300' still running after 0.5 s; killed it"
                )
            }
            let pid = try #require(try pid(in: daemon.directory.file("hang.pid")))
            try await waitUntil("the hook's process group to be gone") {
                kill(-pid, 0) != 0 && errno == ESRCH
            }
            #expect(try daemon.request("ping").isOK)
            try? await waitUntil("no zombies and at most \(before) descriptors") {
                zombieChildren(of: daemon.pid).isEmpty && openDescriptors(daemon.pid) <= before
            }
            #expect(zombieChildren(of: daemon.pid).isEmpty)
            #expect(openDescriptors(daemon.pid) <= before)
        }
    }

    /// A children-cmd that times out after starting a helper in a session of its own,
    /// which holds its output open: the daemon closes its ends of the pipes at the
    /// timeout, so openings of the group do not pile up descriptors.
    @Test func aTimedOutCommandsHelperKeepsNoDescriptorsOfTheDaemon() async throws {
        let config = """
            menu:
              - id: stuck
                title: Stuck
                children-cmd: setsid sh -c 'while [ -e "$PWD" ]; do sleep 0.2; done' & exec sleep 300

            """
        try await withConfigFile(config) { path in
            try await withDaemon(config: path, arguments: ["--children-timeout", "0.3"]) { daemon in
                func openAndTimeOut() throws {
                    let reply = try daemon.request("expand stuck")
                    #expect(reply.isOK, "\(reply)")
                    #expect(
                        rows(try daemon.request("rows stuck")).last?.title.hasPrefix("Error: timed out")
                            == true)
                    #expect(try daemon.request("collapse stuck").isOK)
                }
                // The pool's channel is made before `before`: see the hung hook's test.
                #expect(try daemon.request("find stuck").isOK)
                try openAndTimeOut()
                let before = openDescriptors(daemon.pid)
                for _ in 0..<6 { try openAndTimeOut() }
                // The killed shells are reaped a moment after their timeout.
                try? await waitUntil("at most \(before) descriptors") {
                    openDescriptors(daemon.pid) <= before
                }
                #expect(openDescriptors(daemon.pid) <= before, "\(before) before, then six more timeouts")
            }
        }
    }

    /// A hook whose program is missing fails at every change: the first failure is
    /// logged, then the failures are counted, not written one by one; once it works
    /// again, that is logged too.
    @Test func aHookThatKeepsFailingIsLoggedOnce() async throws {
        let config = """
            menu:
              - id: volume
                title: "Volume {value}"
                type: range
                min: 0
                max: 100
                value: 0
                on-change: '[ -e works ] || exec no-such-mixer-program'

            """
        try await withConfigFile(config) { path in
            try await withDaemon(config: path) { daemon in
                for v in 1...30 { #expect(try daemon.request("set volume \(v)").isOK) }
                try await waitUntil("the hooks' runs to end") {
                    daemon.log.contains("status 127")
                        && !ProcessEntry.all().contains { $0.parent == daemon.pid }
                }
                let lines = daemon.log.split(separator: "\n").filter { $0.contains("on-change volume") }
                #expect(lines.count <= 3, "\(lines.joined(separator: "\n"))")
                #expect(lines.filter { $0.contains("exited with status 127") }.count == 1, "\(lines)")
                try "".write(toFile: daemon.directory.file("works"), atomically: false, encoding: .utf8)
                #expect(try daemon.request("set volume 50").isOK)
                try await waitUntil("the hook to be logged working again; log:\n\(daemon.log)") {
                    daemon.log.contains(
                        "on-change volume: '[ -e works ] || exec no-such-mixer-program' works again")
                }
            }
        }
    }

    @Test func aFailingItemIsLogged() async throws {
        try await withFaultDaemon { daemon in
            #expect(try daemon.request("activate run-fail").lines.first?.hasPrefix("ran\t") == true)
            try await waitUntil("the failure in the log") {
                daemon.log.contains("activate run-fail: 'exit 7' exited with status 7")
            }
        }
    }

    /// Megabytes on stdout and stderr go nowhere near the daemon (to /dev/null, or
    /// past the children-cmd cap), so nothing blocks and nothing piles up.
    @Test func loudCommandsFinishAndAFloodIsCutOff() async throws {
        try await withFaultDaemon { daemon in
            #expect(try daemon.request("ping").isOK)
            // libuv opens a descriptor (on /dev/null) with a loop's first stream and
            // keeps it as long as the loop, a reserve for its accept; menud's first
            // stream is a command's output pipe. A quiet group is opened first, so
            // that `before` counts it. The pool's channel back to the loop is made at
            // the pool's first job and kept: a `find` runs there, so that the state
            // save `expand` schedules cannot add it after `before` is counted.
            #expect(try daemon.request("find quiet").isOK)
            #expect(try daemon.request("expand quiet").isOK)
            #expect(rows(try daemon.request("rows quiet")).map(\.title) == ["Quiet", "Calm"])
            try await waitUntil("the probe connections to close") { openDescriptors(daemon.pid) > 0 }
            let before = openDescriptors(daemon.pid)

            #expect(try daemon.request("set hooks/loud on").isOK)
            #expect(try daemon.request("activate run-loud").isOK)
            try await waitUntil("the loud hook and item to finish") {
                daemon.directory.contains("loud.done")
                    && daemon.directory.contains("item.done")
            }

            #expect(try daemon.request("expand flood").isOK)
            #expect(
                rows(try daemon.request("rows flood")).map(\.title) == [
                    "Flood", "Error: output over 1048576 bytes",
                ])
            #expect(daemon.log.contains("children-cmd flood: "), "\(daemon.log)")
            #expect(daemon.log.contains("failed: output over 1048576 bytes"), "\(daemon.log)")
            let flooder = try #require(try pid(in: daemon.directory.file("flood.pid")))
            try await waitUntil("the flooding command's group to be gone") {
                kill(-flooder, 0) != 0 && errno == ESRCH
            }

            #expect(try daemon.request("expand stderr-flood").isOK)
            #expect(rows(try daemon.request("rows stderr-flood")).map(\.title) == ["Stderr flood", "Fine"])

            // At most: `before` may still count the probe's connection.
            try? await waitUntil("the daemon's descriptors to return to \(before), and no zombies") {
                openDescriptors(daemon.pid) <= before && zombieChildren(of: daemon.pid).isEmpty
            }
            #expect(zombieChildren(of: daemon.pid).isEmpty)
            #expect(openDescriptors(daemon.pid) <= before)
        }
    }
}
