import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a group's `children-cmd`: started detached like any command, its
/// standard output read on the loop as it comes (never blocking it), bounded in size
/// and time. On timeout or overflow its whole process group is killed (it leads its
/// own session), so no helper it started lingers. The output is read with the real
/// loader as a YAML list of nodes, so its mistakes come as FILE:LINE:COL.
///
/// The result never fails: a failure is the reason to show in the group's error row.
enum ChildrenCommandRun {
    static let outputLimit = 1 << 20

    enum Outcome: Sendable {
        case loaded([NodeSpec])
        /// Why there are no children, for the error row.
        case failed(String)
    }

    static func start(_ command: String, path: String, timeout: Duration, state: DaemonState)
        -> Completion<Outcome>
    {
        let outcome = Completion<Outcome>()
        // The group, not just the shell: whatever it started must go too.
        func fail(_ process: ChildProcess, _ reason: String) {
            guard !outcome.isDone else { return }
            process.killGroup(SIGKILL)
            outcome.succeed(.failed(reason))
        }
        let process: ChildProcess
        do throws(ProtocolError) {
            process = try state.launch(
                command, environment: ["MENU_PATH": path], standardOutput: .capture(limit: outputLimit),
                timeout: timeout, expired: { fail($0, "timed out after \(timeout.seconds) s") },
                ended: { result in
                    guard !outcome.isDone else { return }
                    guard result.exit.succeeded else {
                        outcome.succeed(.failed(result.exit.description))
                        return
                    }
                    switch ConfigLoader.loadNodes(
                        bytes: result.standardOutput.bytes, file: "children-cmd of \(path)")
                    {
                    case .success(let nodes): outcome.succeed(.loaded(nodes))
                    case .failure(let errors):
                        let more = errors.errors.count > 1 ? " (and \(errors.errors.count - 1) more)" : ""
                        outcome.succeed(.failed((errors.errors.first?.description ?? "no output") + more))
                    }
                })
        } catch {
            return .succeeded(.failed(error.message))
        }
        process.onOutputTruncated = { [unowned process] in fail(process, "output over \(outputLimit) bytes") }
        return outcome
    }
}
