/// A `find` query, checked and folded: its words, each matched on its own (as fzf's
/// extended search does), and the letters they need. A word given twice is searched
/// once, so a query costs what its different words cost.
struct SearchQuery {
    /// Longest query accepted, in bytes.
    static let maxLength = 256
    /// Most different words a query may hold: one bit each in a node's matched set.
    static let maxWords = 64

    /// The folded query, words separated by one space.
    let folded: [UInt8]
    /// Where each word is in ``folded``, each once.
    let words: [Range<Int>]
    /// The letters each word holds (``SearchIndex/letters(of:)``).
    let wordLetters: [UInt64]
    /// Each word's scalars as ``SearchIndex/bit(_:_:)`` numbers them, every bit for
    /// one that is not a letter or digit (it scores as a word's start wherever it is).
    let scalarBits: [[UInt64]]
    /// The letters the words hold.
    let letters: UInt64
    /// One bit for each word.
    let allWords: UInt64
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
        func endWord() {
            guard let start = wordStart else { return }
            wordStart = nil
            let word = folded[start...]
            if words.contains(where: { folded[$0].elementsEqual(word) }) {
                // Searched once: drop it and the space before it.
                folded.removeLast(folded.count - max(0, start - 1))
            } else {
                words.append(start..<folded.count)
            }
        }
        for s in text.unicodeScalars {
            if s.value < 0x20 || (s.value >= 0x7F && s.value < 0xA0) {
                throw .badQuery(
                    "the query holds a control character (U+\(String(s.value, radix: 16, uppercase: true)))")
            }
            if s == " " {
                endWord()
                continue
            }
            if TextFolding.isCombiningMark(s) { continue }
            if wordStart == nil {
                if !folded.isEmpty { folded.append(UInt8(ascii: " ")) }
                wordStart = folded.count
            }
            folded.append(contentsOf: UTF8.encode(TextFolding.fold(s))!)
        }
        endWord()
        guard !words.isEmpty else { throw .badQuery("the query is empty") }
        guard words.count <= Self.maxWords else {
            throw .badQuery(
                "the query has \(words.count) different words; at most \(Self.maxWords) are searched")
        }
        self.folded = folded
        self.words = words
        ceiling = words.reduce(0) { sum, word in
            sum + FuzzyMatch.ceiling(scalars: folded[word].count { $0 & 0xC0 != 0x80 })
        }
        wordLetters = folded.withUnsafeBufferPointer { all in
            words.map { SearchIndex.letters(of: UnsafeBufferPointer(rebasing: all[$0])) }
        }
        scalarBits = words.map { word in
            var bits: [UInt64] = []
            var k = word.lowerBound
            while k < word.upperBound {
                let n = FuzzyMatch.scalarLength(folded[k])
                bits.append(
                    FuzzyMatch.CharClass(folded[k]) == .word
                        ? SearchIndex.bit(folded[k], folded[min(k + n, word.upperBound) - 1]) : ~0)
                k += n
            }
            return bits
        }
        letters = wordLetters.reduce(0, |)
        allWords = words.count == 64 ? ~0 : (1 << UInt64(words.count)) - 1
    }

    /// The most word `w` can score in a text whose words start with `starts`
    /// (``SearchIndex/startLetters``): a letter earns the bonus of a word's start only
    /// there, and one after it in a run of matched letters only after such a letter.
    func bound(_ w: Int, starts: UInt64) -> Int {
        var total = 0
        var boundary = false
        for (k, bits) in scalarBits[w].enumerated() {
            boundary = boundary || bits & starts != 0
            if k == 0 {
                total +=
                    FuzzyMatch.scoreMatch
                    + (boundary ? FuzzyMatch.bonusWhitespace * FuzzyMatch.firstCharMultiplier : 0)
            } else {
                total +=
                    FuzzyMatch.scoreMatch
                    + (boundary ? FuzzyMatch.bonusWhitespace : FuzzyMatch.bonusConsecutive)
            }
        }
        return total
    }

    /// The most the whole query can score in such a text.
    func bound(starts: UInt64) -> Int {
        var total = 0
        for w in words.indices { total += bound(w, starts: starts) }
        return total
    }

    /// The words whose letters are all in `letters`.
    @inline(__always) func words(within letters: UInt64) -> UInt64 {
        if self.letters & ~letters == 0 { return allWords }
        var found: UInt64 = 0
        for w in wordLetters.indices where wordLetters[w] & ~letters == 0 { found |= 1 << UInt64(w) }
        return found
    }
}
