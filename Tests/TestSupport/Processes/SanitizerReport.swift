import Foundation
import Testing

/// Finds sanitizer reports in what a child printed. Under `swift test --sanitize=...`
/// the `menud` and `menuctl` these tests start are built with the same sanitizer, but
/// their reports go to their standard error, which most tests never look at: a race
/// in the daemon would only change its exit status, and a daemon stopped by SIGTERM
/// has no status a test checks. So every helper that starts them passes what they
/// printed through ``check(_:from:sourceLocation:)``, which turns a report into a
/// failure of the test that started the program.
public enum SanitizerReport {
    /// The first line of every report: ASan and LSan say ERROR, TSan says WARNING,
    /// UBSan says "runtime error".
    public static let markers = [
        "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer",
        "ERROR: ThreadSanitizer", "runtime error:",
    ]

    /// The first report in `output`, from its first line, at most `maxLines` long (a
    /// leak report can run to thousands of lines); nil when there is none.
    public static func first(in output: String, maxLines: Int = 60) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { line in markers.contains { line.contains($0) } })
        else { return nil }
        let report = lines[start...].prefix(maxLines)
        let more = lines.count - start > maxLines ? "\n[…]" : ""
        return report.joined(separator: "\n") + more
    }

    /// Records a test failure when `output` holds a report.
    public static func check(
        _ output: String, from program: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let report = first(in: output) else { return }
        Issue.record("sanitizer report from \(program):\n\(report)", sourceLocation: sourceLocation)
    }

    /// The sanitizer settings of the test process (suppression files, exit codes),
    /// for a child whose environment a test replaces: without them it would report
    /// what the run has declared not to be ours.
    public static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
    }

    /// Whether this run is sanitized (`.ci/sanitize` sets the options): programs are
    /// several times slower, and ASan keeps freed memory in quarantine, so a process's
    /// size says nothing of a leak (LeakSanitizer reports those at exit instead).
    public static var isSanitizedRun: Bool { !environment.isEmpty }

    /// Whether this run is under ThreadSanitizer (`.ci/sanitize thread`), whose runtime
    /// starts a thread of its own in each program with threads, and wakes it every
    /// 100 ms.
    public static var isThreadSanitizedRun: Bool { environment["TSAN_OPTIONS"] != nil }

    /// `environment` with the test process's sanitizer settings added.
    public static func keepingOptions(_ environment: [String: String]) -> [String: String] {
        environment.merging(Self.environment) { own, _ in own }
    }
}
