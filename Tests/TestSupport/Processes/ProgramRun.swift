import Foundation
import Testing

/// What a finished process left.
public struct ProcessResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a program to completion and collects its output. A program still running
/// after `seconds` is killed with its process group and the test fails with what it
/// printed: no child, hung or waiting on a hung daemon, can hang the suite. The
/// bound is only that; no test asserts how long a program took. The program leads a
/// process group of its own, or joins `processGroup` when given one.
public func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, seconds: Double = 120,
    processGroup: pid_t = 0, sourceLocation: SourceLocation = #_sourceLocation
) throws -> ProcessResult {
    requireOwnThread("running \(executable)", sourceLocation: sourceLocation)
    let environment = environment.map(SanitizerReport.keepingOptions) ?? ProcessInfo.processInfo.environment
    let outPipe = try ProgramSpawn.pipe()
    defer { close(outPipe.read) }
    let errPipe: (read: Int32, write: Int32)
    do {
        errPipe = try ProgramSpawn.pipe()
    } catch {
        close(outPipe.write)
        throw error
    }
    defer { close(errPipe.read) }
    let started = Result {
        try ProgramSpawn.start(
            executable, arguments, environment: environment, output: outPipe.write, error: errPipe.write,
            processGroup: processGroup)
    }
    close(outPipe.write)
    close(errPipe.write)
    let pid = try started.get()

    let deadline = Date().addingTimeInterval(seconds)
    var output = ProgramOutput(descriptors: [outPipe.read, errPipe.read])
    var status: Int32?
    func finished() -> Bool {
        if status == nil { status = ProgramSpawn.reaped(pid) }
        return status != nil
    }
    // Until both streams end, or the program has ended and a grandchild that holds
    // them has stayed quiet for a moment.
    while !output.isAtEnd {
        if output.read(waitingMilliseconds: 100) == 0, finished() {
            // What it wrote between the last poll and its end is still in the pipes.
            while !output.isAtEnd, output.read(waitingMilliseconds: 0) > 0, Date() <= deadline {}
            break
        }
        if Date() > deadline { break }
    }
    while !finished() && Date() <= deadline { usleep(10_000) }
    guard let status else {
        kill(-pid, SIGKILL)
        _ = ProgramSpawn.reap(pid)
        throw TimedOut(
            description: "\(executable) \(arguments.joined(separator: " ")) still ran after \(seconds) s;"
                + " stdout: \(output.text(0)); stderr: \(output.text(1))")
    }
    let result = ProcessResult(
        // As Process.terminationStatus gave: the signal's number when a signal ended it.
        status: ProgramSpawn.exitCode(status) ?? ProgramSpawn.signal(status) ?? 0, stdout: output.text(0),
        stderr: output.text(1))
    SanitizerReport.check(result.stderr, from: "\(executable) \(arguments.joined(separator: " "))")
    return result
}
