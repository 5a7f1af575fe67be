import Foundation
import MenuClient
import Testing

/// The state file's file system fills up or turns read-only under a running daemon:
/// it goes on serving, `save` says why, and state is written again once the disk
/// is back. Needs root, to mount a small tmpfs (chmod does not stop root).
@Suite(.serialized, .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")))
struct StateDiskFaultTests {
    /// A 64 KiB tmpfs at `directory/fs`, unmounted however the test ends.
    private func withSmallFileSystem(_ body: (TempDirectory, String) async throws -> Void) async throws {
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

                #expect(unlink(fs + "/filler") == 0)
                #expect(try daemon.request("save").isOK)
                #expect(stateFile(state).contains("value settings/hostname full"))
                // No temporary file was left behind by the failed writes.
                #expect(try FileManager.default.contentsOfDirectory(atPath: fs) == ["state"])
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

                #expect(try run("/bin/mount", ["-o", "remount,rw", fs]).status == 0)
                #expect(try daemon.request("save").isOK)
                #expect(stateFile(state).contains("value settings/hostname frozen"))
            }
        }
    }
}
