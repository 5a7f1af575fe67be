import TestSupport
import Testing

/// The harness's reading of sanitizer output: a report it missed would let a sanitized
/// run pass with a bug in menud, and a false one would fail every test.
@Suite(.ownThread) struct SanitizerReportTests {
    /// The shape of each sanitizer's report, as it lands in a daemon's log after its
    /// own lines.
    static let reports: [(sanitizer: String, report: String)] = [
        (
            "address",
            """
            =================================================================
            ==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010
            READ of size 8 at 0x602000000010 thread T1
                #0 0x55d0 in $s5menud11MenuServiceC6commityyF MenuService.swift:64:9
            SUMMARY: AddressSanitizer: heap-use-after-free MenuService.swift:64:9
            """
        ),
        (
            "leak",
            """
            =================================================================
            ==4242==ERROR: LeakSanitizer: detected memory leaks

            Direct leak of 64 byte(s) in 1 object(s) allocated from:
                #0 0x55d0 in malloc
            SUMMARY: AddressSanitizer: 64 byte(s) leaked in 1 allocation(s).
            """
        ),
        (
            "thread",
            """
            ==================
            WARNING: ThreadSanitizer: Swift access race (pid=4242)
              Modifying access of Swift variable at 0x7208000013f0 by thread T4:
                #0 $s5menud10StateStoreC5writeyF StateStore.swift:71
            SUMMARY: ThreadSanitizer: Swift access race StateStore.swift:71
            """
        ),
    ]

    @Test(arguments: reports.map(\.sanitizer))
    func findsTheReportAfterTheDaemonsOwnLines(sanitizer: String) throws {
        let report = try #require(Self.reports.first { $0.sanitizer == sanitizer }?.report)
        let log = """
            2026-11-22T23:00:25+0000 info menud: [menud] serving menu.yaml
            2026-11-22T23:00:25+0000 info menud: [menud] listening on /tmp/menud/socket
            \(report)
            """
        let found = try #require(SanitizerReport.first(in: log))
        let markerLine = try #require(report.split(separator: "\n").dropFirst().first)
        #expect(found.hasPrefix(markerLine), "\(found)")
        #expect(found.contains("SUMMARY:"), "\(found)")
        #expect(!found.contains("listening on"), "\(found)")
    }

    @Test func aLongReportIsCutToItsBeginning() throws {
        let frames = (0..<500).map { "    #\($0) 0x55d0 in frame\($0)" }
        let log = (["==1==ERROR: LeakSanitizer: detected memory leaks"] + frames).joined(separator: "\n")
        let found = try #require(SanitizerReport.first(in: log, maxLines: 10))
        let lines = found.split(separator: "\n")
        #expect(lines.count == 11)
        #expect(lines[1] == "    #0 0x55d0 in frame0")
        #expect(lines.last == "[…]")
    }

    /// What the real programs print when they refuse bad input is not a report.
    @Test func theProgramsOwnErrorsAreNotReports() throws {
        let check = try run(
            TestPaths.menud, ["--check", "--config", TestPaths.fixture("bad.yaml")])
        #expect(check.status != 0)
        #expect(!check.stderr.isEmpty)
        #expect(SanitizerReport.first(in: check.stderr) == nil, "\(check.stderr)")
        let menuctl = try run(TestPaths.menuctl, ["--socket", "/nonexistent/socket", "ping"])
        #expect(menuctl.status != 0)
        #expect(!menuctl.stderr.isEmpty)
        #expect(SanitizerReport.first(in: menuctl.stderr) == nil, "\(menuctl.stderr)")
    }
}
