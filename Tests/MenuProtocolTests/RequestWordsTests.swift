import MenuProtocol
import PropertyBased
import Testing

@Suite struct RequestWordsTests {
    private func read(_ line: String, into words: inout RequestWords) -> ProtocolError? {
        var line = line
        return line.withUTF8 { words.read($0) }
    }

    private func texts(_ words: RequestWords) -> [String] { (0..<words.count).map(words.text) }

    @Test func aLineReplacesTheWordsOfTheLineBefore() {
        var words = RequestWords()
        #expect(read(#"set "a long path/with spaces" 40"#, into: &words) == nil)
        #expect(texts(words) == ["set", "a long path/with spaces", "40"])
        #expect(read("get x", into: &words) == nil)
        #expect(texts(words) == ["get", "x"])
        #expect(read("  \t ", into: &words) == nil)
        #expect(words.isEmpty)
    }

    @Test func wordsReadAsBytes() {
        var words = RequestWords()
        #expect(read(#"toggle "settings/network" --recursive"#, into: &words) == nil)
        #expect(words.withBytes(1) { Array($0) } == Array("settings/network".utf8))
        #expect((0..<words.count).map(words.isFlag) == [false, false, true])
    }

    @Test func badLinesHaveTheirErrorAndNoWords() {
        var words = RequestWords()
        #expect(read("get a", into: &words) == nil)
        #expect(
            read("get \u{1B}[31m", into: &words)?.message == "request contains the control character U+001B")
        #expect(words.isEmpty)
        #expect(read(#"set a "open"#, into: &words)?.message == "unbalanced quote starting at column 7")
        #expect(words.isEmpty)
        let invalid: [UInt8] = [0x67, 0x65, 0x74, 0x20, 0xFF]
        #expect(invalid.withUnsafeBufferPointer { words.read($0) }?.message == "request is not valid UTF-8")
    }

    /// One `RequestWords` read line after line, as a connection does, gives each
    /// line's words as a fresh read would: nothing of a line is left for the next.
    @Test func reusedStorageReadsLikeFreshStorage() async {
        let alphabet: [String] = ["a", "Z", " ", "\t", "\"", "\\", "-", "é", "🙂", "/", "x"]
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...12).array(of: 1...6)
        ) { lines in
            var reused = RequestWords()
            for line in lines.map({ $0.map { alphabet[$0] }.joined() }) {
                var fresh = RequestWords()
                let expected = read(line, into: &fresh)
                #expect(read(line, into: &reused) == expected)
                #expect(texts(reused) == texts(fresh))
                #expect((0..<reused.count).map(reused.isFlag) == (0..<fresh.count).map(fresh.isFlag))
            }
        }
    }
}
