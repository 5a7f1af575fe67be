import Testing

@testable import MenuProtocol

/// The one framer, as the daemon uses it for requests (with their limit) and a
/// client for replies (without).
@Suite struct LineFramerTests {
    private func frame(_ reads: [String], limit: Int = Request.maximumLineLength, end: Bool = false)
        -> [String]
    {
        var framer = LineFramer(maximumLineLength: limit)
        var out: [String] = []
        func keep(_ line: LineFramer.Line) {
            switch line {
            case .bytes(let bytes): out.append(String(decoding: bytes, as: UTF8.self))
            case .tooLong: out.append("<too long>")
            }
        }
        for read in reads {
            Array(read.utf8).withUnsafeBytes { framer.feed($0, keep) }
        }
        if end { framer.finish(keep) }
        return out
    }

    @Test func linesSplitAcrossReadsAndCRLF() {
        #expect(frame(["pi", "ng\r\nget a", "\n\nlast"]) == ["ping", "get a", ""])
        #expect(frame(["pi", "ng\r\nget a", "\n\nlast"], end: true) == ["ping", "get a", "", "last"])
    }

    @Test func aLineOverTheLimitIsReportedOnceAndSkippedToItsEnd() {
        let long = String(repeating: "x", count: 10)
        #expect(frame([long, long, "\nping\n"], limit: 8) == ["<too long>", "ping"])
        #expect(frame(["12345678\r\n", "123456789\n"], limit: 8) == ["12345678", "<too long>"])
    }

    @Test func withoutALimitEveryLineIsKept() {
        let long = String(repeating: "y", count: 200_000)
        #expect(frame([long, long, "\n"], limit: .max) == [long + long])
    }
}
