import Foundation
import TestSupport
import Testing

/// Runs this test binary again, in a process of its own, with only the tests whose
/// names match `only`, and `environment` added to this process's. Started and
/// reaped as ``run(_:_:environment:seconds:sourceLocation:)`` does (`waitpid` on its
/// own pid, so nothing else in the run can take its exit). Returns its exit status
/// (or the number of the signal that ended it) and what it printed.
func runThisTestBinary(
    only: String, environment: [String: String], seconds: Double = 120,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> (status: Int32, output: String) {
    let result = try run(
        "/proc/self/exe", ["--testing-library", "swift-testing", "--filter", only],
        environment: ProcessInfo.processInfo.environment.merging(environment) { _, added in added },
        seconds: seconds, sourceLocation: sourceLocation)
    return (result.status, result.stdout + result.stderr)
}
