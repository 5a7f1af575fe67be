import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a node's `value-cmd`: the last line it prints, trimmed, is the value.
/// A run that fails, prints nothing or takes too long reads as an error, which
/// leaves the node stale. A run that fails for a program sh could not find says
/// which (``MissingPrograms``), and the log has that once.
enum ValueCommandRun {
    /// How much of a command's output is read: enough for any value's line.
    static let outputLimit = 64 * 1024
    /// How long a run may take before it is killed with its process group.
    static let timeout = Duration.seconds(10)

    static func start(
        _ command: String, path: String, processes: ProcessTable, missing: MissingPrograms,
        done: @escaping (Result<String, SourceFailure>) -> Void
    ) {
        do throws(ProtocolError) {
            let process = try processes.launch(
                command, environment: ["MENU_PATH": path],
                standardOutput: .capture(limit: outputLimit),
                standardError: .captureTail(limit: MissingPrograms.errorOutputLimit), timeout: timeout,
                expired: { process in
                    process.killGroup(SIGKILL)
                    process.abandonOutput()
                }, endsWithDaemon: true,
                ended: { result in done(reading(of: result, path: path, missing: missing)) })
            // Past the limit the run has failed: it is stopped there, not read to its end.
            process.onOutputTruncated = { [unowned process] in
                process.killGroup(SIGKILL)
                process.abandonOutput()
            }
        } catch {
            done(.failure(SourceFailure(error.message)))
        }
    }

    private static func reading(of result: ChildProcess.Result, path: String, missing: MissingPrograms)
        -> Result<String, SourceFailure>
    {
        guard !result.standardOutput.truncated else {
            return .failure(SourceFailure("'value-cmd' printed more than 64 KiB; stopped it"))
        }
        guard result.exit.succeeded else {
            let names = missing.found(in: result.standardError, user: "value-cmd \(path)")
            if !names.isEmpty {
                return .failure(SourceFailure("\(names.joined(separator: ", ")): not found", logged: true))
            }
            if case .killed(SIGKILL) = result.exit {
                return .failure(
                    SourceFailure(
                        "'value-cmd' still running after \(Value.format(timeout.seconds)) s; killed it"))
            }
            return .failure(SourceFailure("'value-cmd' \(result.exit)"))
        }
        let lines = result.standardOutput.bytes.split(separator: UInt8(ascii: "\n"))
        guard
            let last = lines.last(where: {
                !$0.allSatisfy {
                    $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
                }
            })
        else { return .failure(SourceFailure("'value-cmd' printed nothing")) }
        guard let text = String(validating: last, as: UTF8.self) else {
            return .failure(SourceFailure("'value-cmd' printed a line that is not UTF-8"))
        }
        return .success(text)
    }
}
