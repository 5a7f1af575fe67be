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

    /// `feedLast`: of a read's complete lines only the last is handed on; the line
    /// still arriving is kept for the next read.
    private func frameLast(_ reads: [String], limit: Int = 8) -> [[String]] {
        var framer = LineFramer(maximumLineLength: limit)
        return reads.map { read in
            var out: [String] = []
            Array(read.utf8).withUnsafeBytes {
                framer.feedLast($0) { line in
                    switch line {
                    case .bytes(let bytes): out.append(String(decoding: bytes, as: UTF8.self))
                    case .tooLong: out.append("<too long>")
                    }
                }
            }
            return out
        }
    }

    @Test func feedLastHandsOnTheLastCompleteLineOfARead() {
        #expect(frameLast(["a\nb\nc\nd"]) == [["c"]])
        // The start of "d" waits for its end; a read with one newline is framed whole.
        #expect(frameLast(["a\nb\nc\nd", "e\n"]) == [["c"], ["de"]])
        #expect(frameLast(["on\noff\non\n", "of", "f\n"]) == [["on"], [], ["off"]])
    }

    @Test func feedLastStillSaysALineWentOverTheLimit() {
        // "123456" from the first read and "789" make a line over 8, passed over
        // with the lines after it: it is still said, before the last.
        #expect(frameLast(["123456", "789\nx\ny\n"]) == [[], ["<too long>", "y"]])
        #expect(frameLast(["123456", "78\nx\ny\n"]) == [[], ["y"]])
        // A `\r` before the newline is not counted, as `feed` does not count it.
        #expect(frameLast(["123456", "78\r\nx\ny\n"]) == [[], ["y"]])
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
