import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a node's `value-cmd`: the last line it prints, trimmed, is the value.
/// A run that fails, prints nothing or takes too long reads as an error, which
/// leaves the node stale.
enum ValueCommandRun {
    /// How much of a command's output is read: enough for any value's line.
    static let outputLimit = 64 * 1024
    /// How long a run may take before it is killed with its process group.
    static let timeout = Duration.seconds(10)

    static func start(
        _ command: String, path: String, processes: ProcessTable,
        done: @escaping (Result<String, ValueError>) -> Void
    ) {
        do throws(ProtocolError) {
            try processes.launch(
                command, environment: ["MENU_PATH": path],
                standardOutput: .capture(limit: outputLimit), timeout: timeout,
                expired: { process in
                    process.killGroup(SIGKILL)
                    process.abandonOutput()
                }, endsWithDaemon: true,
                ended: { result in done(reading(of: result)) })
        } catch {
            done(.failure(ValueError(error.message)))
        }
    }

    private static func reading(of result: ChildProcess.Result) -> Result<String, ValueError> {
        guard result.exit.succeeded else {
            if case .killed(SIGKILL) = result.exit {
                return .failure(
                    ValueError(
                        "'value-cmd' still running after \(Value.format(timeout.seconds)) s; killed it"))
            }
            return .failure(ValueError("'value-cmd' \(result.exit)"))
        }
        guard !result.standardOutput.truncated else {
            return .failure(ValueError("'value-cmd' printed more than 64 KiB"))
        }
        let lines = result.standardOutput.bytes.split(separator: UInt8(ascii: "\n"))
        guard
            let last = lines.last(where: {
                !$0.allSatisfy {
                    $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
                }
            })
        else { return .failure(ValueError("'value-cmd' printed nothing")) }
        guard let text = String(validating: last, as: UTF8.self) else {
            return .failure(ValueError("'value-cmd' printed a line that is not UTF-8"))
        }
        return .success(text)
    }
}
