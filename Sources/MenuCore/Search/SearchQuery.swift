/// A `find` query, checked and folded: its words, each matched on its own (as fzf's
/// extended search does), and the letters they need.
struct SearchQuery {
    /// Longest query accepted, in bytes.
    static let maxLength = 256

    /// The folded query, words separated by one space.
    let folded: [UInt8]
    /// Where each word is in ``folded``.
    let words: [Range<Int>]
    /// The letters the words hold (``SearchIndex/letters(of:)``).
    let letters: UInt64
    /// The highest score a text can have for this query: its words' ceilings.
    let ceiling: Int

    init(_ text: String) throws(MenuError) {
        guard text.utf8.count <= Self.maxLength else {
            throw .badQuery(
                "the query is \(text.utf8.count) bytes long; at most \(Self.maxLength) are searched")
        }
        var folded: [UInt8] = []
        var words: [Range<Int>] = []
        var wordStart: Int?
        for s in text.unicodeScalars {
            if s.value < 0x20 || (s.value >= 0x7F && s.value < 0xA0) {
                throw .badQuery(
                    "the query holds a control character (U+\(String(s.value, radix: 16, uppercase: true)))")
            }
            if s == " " {
                if let start = wordStart { words.append(start..<folded.count) }
                wordStart = nil
                continue
            }
            if TextFolding.isCombiningMark(s) { continue }
            if wordStart == nil {
                if !folded.isEmpty { folded.append(UInt8(ascii: " ")) }
                wordStart = folded.count
            }
            folded.append(contentsOf: UTF8.encode(TextFolding.fold(s))!)
        }
        if let start = wordStart { words.append(start..<folded.count) }
        guard !words.isEmpty else { throw .badQuery("the query is empty") }
        self.folded = folded
        self.words = words
        ceiling = words.reduce(0) { sum, word in
            sum + FuzzyMatch.ceiling(scalars: folded[word].count { $0 & 0xC0 != 0x80 })
        }
        letters = folded.withUnsafeBufferPointer { all in
            words.reduce(0) { $0 | SearchIndex.letters(of: UnsafeBufferPointer(rebasing: all[$1])) }
        }
    }
}
