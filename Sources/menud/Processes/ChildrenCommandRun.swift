import MenuConfigLoading
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
/// loader as a YAML list of nodes, so its mistakes come as FILE:LINE:COL, on a pool
/// thread: a megabyte of nodes takes tens of milliseconds to read, which every client
/// would wait for on the loop. Output that is what the group shows already is known
/// by its bytes and not read at all.
///
/// The result never fails: a failure is the reason to show in the group's error row,
/// with what the log should hold besides. What the command writes to its standard
/// error is kept (its end, when there is much of it) for that: a command that fails
/// usually says why there.
enum ChildrenCommandRun {
    static let outputLimit = 1 << 20
    /// How much of a command's standard error is kept for the log: the last bytes.
    static let errorOutputLimit = 64 << 10
    /// The longest stderr line shown in an error row, in characters.
    static let shownLineLimit = 200

    enum Outcome: Sendable {
        /// The nodes, and the output they were read from: a refresh that prints what
        /// the group shows already changes nothing.
        case loaded([NodeSpec], output: [UInt8])
        /// The output was `unchangedFrom`, byte for byte: the group shows it already.
        case unchanged
        /// Why there are no children, one line for the error row, and for the log
        /// what the row leaves out: every error in the output, or the whole stderr.
        case failed(String, details: String? = nil)
    }

    static func start(
        _ command: String, path: String, timeout: Duration, processes: ProcessTable, loop: EventLoop,
        unchangedFrom shown: [UInt8]? = nil
    ) -> Completion<Outcome> {
        let outcome = Completion<Outcome>()
        // The group, not just the shell: whatever it started must go too.
        func fail(_ process: ChildProcess, _ reason: String) {
            guard !outcome.isDone else { return }
            process.killGroup(SIGKILL)
            // Its output will not be read: a helper it started in a session of its own
            // would otherwise keep two descriptors of the daemon's open until it ends.
            process.abandonOutput()
            outcome.succeed(.failed(reason))
        }
        let process: ChildProcess
        do throws(ProtocolError) {
            process = try processes.launch(
                command, environment: ["MENU_PATH": path], standardOutput: .capture(limit: outputLimit),
                standardError: .captureTail(limit: errorOutputLimit), timeout: timeout,
                expired: { fail($0, "timed out after \(timeout.seconds) s") }, endsWithDaemon: true,
                ended: { result in
                    guard !outcome.isDone else { return }
                    let stderr = errorOutput(result.standardError)
                    guard result.exit.succeeded else {
                        let said = stderr.flatMap(lastLine).map { ": " + $0 } ?? ""
                        outcome.succeed(.failed(result.exit.description + said, details: stderr))
                        return
                    }
                    let output = result.standardOutput.bytes
                    if let shown, shown == output {
                        outcome.succeed(.unchanged)
                        return
                    }
                    let read = { @Sendable in
                        ConfigLoader.loadNodes(bytes: output, file: "children-cmd of \(path)")
                    }
                    let done = { (loaded: Result<[NodeSpec], ConfigErrors>) in
                        switch loaded {
                        case .success(let nodes):
                            outcome.succeed(.loaded(nodes, output: output))
                        case .failure(let errors):
                            let more = errors.errors.count > 1 ? " (and \(errors.errors.count - 1) more)" : ""
                            let all = errors.errors.count > 1 ? errors.description : nil
                            let details = [all, stderr.map { "its standard error:\n" + $0 }].compactMap { $0 }
                            outcome.succeed(
                                .failed(
                                    (errors.errors.first?.description ?? "no output") + more,
                                    details: details.isEmpty ? nil : details.joined(separator: "\n")))
                        }
                    }
                    do throws(UVError) {
                        try BackgroundWork.run(on: loop, read, then: done)
                    } catch {
                        done(read())
                    }
                })
        } catch {
            return .succeeded(.failed(error.message))
        }
        process.onOutputTruncated = { [unowned process] in fail(process, "output over \(outputLimit) bytes") }
        return outcome
    }

    /// The command's standard error as text for the log, nil when it wrote none.
    private static func errorOutput(_ captured: ChildProcess.Captured) -> String? {
        var bytes = captured.bytes[...]
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
            bytes = bytes.dropLast()
        }
        guard !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return captured.truncated ? "(its first bytes dropped) …" + text : text
    }

    /// The last line of `text` with anything in it, clipped to fit a row.
    private static func lastLine(_ text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }
        guard let line else { return nil }
        let trimmed = line.drop { $0.isWhitespace }
        return trimmed.count > shownLineLimit ? trimmed.prefix(shownLineLimit) + "…" : String(trimmed)
    }
}
