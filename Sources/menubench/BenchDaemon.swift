import Foundation
import Glibc

/// A menud serving `menu`, from a directory of its own (its config watch sees
/// nothing else), with a state file, as a user runs it: the daemon the live and
/// faults sections measure.
struct BenchDaemon {
    let pid: pid_t
    let socket: String

    /// `seconds`: how long the menu may take to load before the socket answers.
    init?(menu: String, name: String, binDir: String, workDir: String, seconds: Double = 5) {
        let directory = "\(workDir)/\(name).d"
        let config = "\(directory)/menu.yaml"
        socket = "\(workDir)/\(name).sock"
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST,
            FileManager.default.createFile(atPath: config, contents: Data(menu.utf8)),
            let pid = ChildProcess.start([
                "\(binDir)/menud", "--config", config, "--socket", socket, "--state",
                "\(workDir)/\(name).state",
            ])
        else { return nil }
        self.pid = pid
        let socket = socket
        guard BenchDaemon.waitUntil(seconds: seconds, { SocketBench.waitForSocket(socket) }) else {
            ChildProcess.stop(pid)
            return nil
        }
    }

    func stop() { ChildProcess.stop(pid) }

    /// Resident memory in bytes, from `/proc/PID/status`; 0 when it cannot be read.
    var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kib * 1024
    }

    static func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = SocketLoad.now() + UInt64(seconds * 1e9)
        while SocketLoad.now() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
