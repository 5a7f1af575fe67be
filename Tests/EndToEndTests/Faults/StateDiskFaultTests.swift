import Foundation
import MenuClient
import TestSupport
import Testing

/// Mounting needs root and `mount`; chmod does not stop root, so nothing else will do.
private var canMountTmpfs: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")
}

/// The state file's file system fills up or turns read-only under a running daemon:
/// it goes on serving, `save` says why, and state is written again once the disk
/// is back. Needs root, to mount a small tmpfs (chmod does not stop root); without
/// it the suite is skipped, except on CI (`CI=true`), where it must run.
@Suite(.serialized, .ownThread, .enabled(if: XTools.isCI || canMountTmpfs))
struct StateDiskFaultTests {

    /// A 64 KiB tmpfs at `directory/fs`, unmounted however the test ends.
    private func withSmallFileSystem(_ body: (TempDirectory, String) async throws -> Void) async throws {
        try #require(canMountTmpfs, "CI=true but not root or no /bin/mount: the disk fault tests cannot run")
        let directory = try TempDirectory()
        let mountPoint = directory.file("fs")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        let mounted = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mountPoint])
        try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.stderr)")
        defer { _ = try? run("/bin/umount", ["-l", mountPoint]) }
        try await body(directory, mountPoint)
    }

    private func stateFile(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    private func occurrences(of text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    /// Several changes while the disk is bad, each long enough apart for its own
    /// write (and a retry or two): the failure is still logged only once.
    private func changeRepeatedly(_ daemon: TestDaemon, to value: String) async throws {
        for i in 0..<4 {
            #expect(try daemon.request("set settings/hostname \(value)-\(i)").isOK)
            try await Task.sleep(for: .milliseconds(400))
        }
        #expect(try daemon.request("set settings/hostname \(value)").isOK)
        #expect(try daemon.request("get settings/hostname").isOK)
    }

    /// Once the disk is back the state is written by the daemon's own retry, with no
    /// further change or `save` from a client, and the recovery is logged.
    private func expectWrittenAgain(_ daemon: TestDaemon, _ state: String, _ line: String) async throws {
        try await waitUntil("the retry to write the state; log:\n\(daemon.log)") {
            stateFile(state).contains(line) && daemon.log.contains("state saved again to \(state)")
        }
        #expect(occurrences(of: "cannot save state", in: daemon.log) == 1, "\(daemon.log)")
    }

    @Test func aFullDiskFailsSavesUntilThereIsRoomAgain() async throws {
        try await withSmallFileSystem { directory, fs in
            let state = fs + "/state"
            try await withDaemon(arguments: ["--state", state], directory: directory) { daemon in
                // Fill every block: dd stops at ENOSPC.
                _ = try run("/bin/dd", ["if=/dev/zero", "of=\(fs)/filler", "bs=4096"])
                #expect(try daemon.request("set settings/hostname full").isOK)
                let reply = try daemon.request("save")
                #expect(reply.errorCode == "save-failed")
                #expect(reply.errorMessage?.contains("No space left on device") == true, "\(reply)")
                try await waitUntil("the failure to be logged") { daemon.log.contains("cannot save state") }
                #expect(try daemon.request("get settings/hostname").isOK)

                try await changeRepeatedly(daemon, to: "full")
                #expect(occurrences(of: "cannot save state", in: daemon.log) == 1, "\(daemon.log)")

                #expect(unlink(fs + "/filler") == 0)
                try await expectWrittenAgain(daemon, state, "value settings/hostname full")
                #expect(try daemon.request("save").isOK)
                #expect(stateFile(state).contains("value settings/hostname full"))
                // No temporary file was left behind by the failed writes.
                #expect(try FileManager.default.contentsOfDirectory(atPath: fs) == ["state"])
            }
        }
    }

    /// A `save` that fails while the automatic write is waiting to retry leaves the
    /// retry armed: the file is written once there is room, with no other change.
    @Test func aFailedSaveKeepsTheRetry() async throws {
        try await withSmallFileSystem { directory, fs in
            let state = fs + "/state"
            try await withDaemon(arguments: ["--state", state], directory: directory) { daemon in
                _ = try run("/bin/dd", ["if=/dev/zero", "of=\(fs)/filler", "bs=4096"])
                #expect(try daemon.request("set settings/hostname retried").isOK)
                try await waitUntil("the automatic write to fail") {
                    daemon.log.contains("cannot save state")
                }
                #expect(try daemon.request("save").errorCode == "save-failed")
                #expect(unlink(fs + "/filler") == 0)
                try await expectWrittenAgain(daemon, state, "value settings/hostname retried")
            }
        }
    }

    /// The write at shutdown fails: the changes since the last write are lost, which
    /// the log says at error level and the exit status shows.
    @Test func aFinalSaveThatFailsIsAnErrorAndAFailedExit() async throws {
        try await withSmallFileSystem { directory, fs in
            let state = fs + "/state"
            try await withDaemon(arguments: ["--state", state], directory: directory) { daemon throws in
                #expect(try daemon.request("save").isOK)
                #expect(try run("/bin/mount", ["-o", "remount,ro", fs]).status == 0)
                #expect(try daemon.request("set settings/hostname lost").isOK)
                await daemon.stop()
                #expect(daemon.process.exitStatus == 1, "menud \(daemon.process.ending); log: \(daemon.log)")
                #expect(daemon.log.contains("error menud: [menud] the last save failed"), "\(daemon.log)")
                #expect(try run("/bin/mount", ["-o", "remount,rw", fs]).status == 0)
            }
        }
    }

    @Test func aReadOnlyStateDirectoryFailsSavesUntilItIsWritable() async throws {
        try await withSmallFileSystem { directory, fs in
            let state = fs + "/state"
            try await withDaemon(arguments: ["--state", state], directory: directory) { daemon in
                #expect(try run("/bin/mount", ["-o", "remount,ro", fs]).status == 0)
                #expect(try daemon.request("set settings/hostname frozen").isOK)
                let reply = try daemon.request("save")
                #expect(reply.errorCode == "save-failed")
                #expect(reply.errorMessage?.contains("Read-only file system") == true, "\(reply)")
                #expect(try daemon.request("ping").isOK)
                try await changeRepeatedly(daemon, to: "frozen")
                #expect(occurrences(of: "cannot save state", in: daemon.log) == 1, "\(daemon.log)")

                #expect(try run("/bin/mount", ["-o", "remount,rw", fs]).status == 0)
                try await expectWrittenAgain(daemon, state, "value settings/hostname frozen")
                #expect(try daemon.request("save").isOK)
                #expect(stateFile(state).contains("value settings/hostname frozen"))
            }
        }
    }
}
