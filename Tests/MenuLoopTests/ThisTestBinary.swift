import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs this test binary again, in a process of its own, with only the tests whose
/// names match `only`, and `environment` added to this process's. Reaped here with
/// `waitpid` on its own pid, so nothing else in the run can take its exit. Returns
/// its exit status (or 128 + the signal that ended it) and what it printed.
func runThisTestBinary(only: String, environment: [String: String], seconds: Int = 120) async throws
    -> (status: Int32, output: String)
{
    var template = Array("/tmp/menuloop-child-XXXXXX".utf8CString)
    let log = mkstemp(&template)
    guard log >= 0 else { throw SpawnFailed(errno: errno) }
    let logPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
        close(log)
        unlink(logPath)
    }
    do {
        let arguments = ["/proc/self/exe", "--testing-library", "swift-testing", "--filter", only]
        var variables = environment.map { "\($0.key)=\($0.value)" }
        var entry = environ
        while let pointer = entry.pointee {
            variables.append(String(cString: pointer))
            entry += 1
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(variables) { envp in posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, envp) }
        }
        guard spawned == 0 else { throw SpawnFailed(errno: spawned) }
        var raw: Int32 = 0
        var waited = 0
        while waitpid(pid, &raw, WNOHANG) == 0 {
            if waited >= seconds * 50 {
                kill(pid, SIGKILL)
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                break
            }
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + raw & 0x7f
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        lseek(log, 0, SEEK_SET)
        while case let n = chunk.withUnsafeMutableBytes({ read(log, $0.baseAddress, $0.count) }), n > 0 {
            output += chunk[..<n]
        }
        return (status, String(decoding: output, as: UTF8.self))
    }
}

struct SpawnFailed: Error { let errno: Int32 }

private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
