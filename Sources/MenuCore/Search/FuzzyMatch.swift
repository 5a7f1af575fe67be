/// fzf's ranking of a fuzzy match (its "v1" algorithm): a pattern matches when its
/// letters occur in the text in order; of the places where they do, the shortest
/// that ends earliest is scored. Each letter scores, more at the start of a word and
/// next to the letter before it; gaps between letters cost. Works on folded UTF-8
/// (``TextFolding``), a scalar at a time, so `ä` in a pattern matches `ä` in a text.
struct FuzzyMatch {
    static let scoreMatch = 16
    static let gapStart = -3
    static let gapExtension = -1
    /// After a space.
    static let bonusWhitespace = 10
    /// After `/`, `,`, `:`, `;`, `|`: a path's component, a list's item.
    static let bonusDelimiter = 9
    /// After any other punctuation, and on punctuation itself.
    static let bonusBoundary = 8
    /// A letter right after a matched one, at least.
    static let bonusConsecutive = 4
    /// The pattern's first letter's bonus counts twice.
    static let firstCharMultiplier = 2

    enum CharClass: Int, Comparable {
        case whitespace, delimiter, punctuation, word
        static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

        @inline(__always) init(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): self = .whitespace
            case UInt8(ascii: "/"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"),
                UInt8(ascii: "|"):
                self = .delimiter
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), 0x80...:
                self = .word
            default: self = .punctuation
            }
        }
    }

    @inline(__always) static func bonus(after previous: CharClass, on current: CharClass) -> Int {
        if current == .word {
            switch previous {
            case .whitespace: return bonusWhitespace
            case .delimiter: return bonusDelimiter
            case .punctuation: return bonusBoundary
            case .word: return 0
            }
        }
        return current == .whitespace ? bonusWhitespace : bonusBoundary
    }

    /// The highest score a pattern of `scalars` scalars can have: each letter at its
    /// most (the whitespace bonus is the largest), no gap.
    static func ceiling(scalars: Int) -> Int {
        scoreMatch + bonusWhitespace * firstCharMultiplier + (scalars - 1) * (scoreMatch + bonusWhitespace)
    }

    /// The first place of `byte` in `text` from `start` on, or the end: eight bytes a
    /// step (a zero byte in `word ^ byte×8` marks it), since this scan is most of a
    /// query's time.
    @inline(__always) static func index(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>, from start: Int)
        -> Int
    {
        var t = start
        let count = text.count
        if let base = text.baseAddress {
            let raw = UnsafeRawPointer(base)
            let spread = UInt64(byte) &* 0x0101_0101_0101_0101
            while t + 8 <= count {
                let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: t, as: UInt64.self)) ^ spread
                let zero = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if zero != 0 { return t + zero.trailingZeroBitCount / 8 }
                t += 8
            }
        }
        while t < count && text[t] != byte { t += 1 }
        return t
    }

    /// The length of the UTF-8 sequence that `lead` starts.
    @inline(__always) static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// Whether `pattern[p ..< p + n]` equals `text[t ..< t + n]`, `n` being the
    /// length of the scalar at `p`.
    @inline(__always) static func same(
        _ text: UnsafeBufferPointer<UInt8>, _ t: Int, _ pattern: UnsafeBufferPointer<UInt8>, _ p: Int,
        _ n: Int
    ) -> Bool {
        if text[t] != pattern[p] { return false }
        if n == 1 { return true }
        if t + n > text.count { return false }
        for k in 1..<n where text[t + k] != pattern[p + k] { return false }
        return true
    }

    /// The score of `pattern`'s best place in `text`, with the byte offsets of its
    /// matched scalars appended to `positions` when it is given; nil when it does not
    /// match. Both are folded, and `pattern` is not empty. Ranking a query's
    /// candidates asks for the score alone: only the answers kept need positions.
    ///
    /// A place that cannot score `atLeast` is not scored, and answers nil: the
    /// ceiling less the least its gaps cost is all it could score.
    @inline(__always) static func match(
        _ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>,
        positions: UnsafeMutablePointer<[Int32]>?, atLeast: Int = .min
    ) -> Int? {
        // Forward: the earliest place where the whole pattern has occurred. A search
        // for a scalar's first byte lands only on scalars' first bytes: in UTF-8 no
        // first byte is also a later one.
        let count = text.count
        var p = 0
        var t = 0
        while p < pattern.count {
            let b = pattern[p]
            t = index(of: b, in: text, from: t)
            if t == count { return nil }
            let n = scalarLength(b)
            if n == 1 || same(text, t, pattern, p, n) {
                p += n
                t += n
            } else {
                t += 1
            }
        }
        let end = t
        // Backward from there: the latest start, and so the shortest span.
        p = pattern.count
        var start = end
        while p > 0 {
            var q = p - 1
            while q > 0, pattern[q] & 0xC0 == 0x80 { q -= 1 }
            let b = pattern[q]
            repeat { start -= 1 } while text[start] != b
            if p - q == 1 || same(text, start, pattern, q, p - q) { p = q }
        }
        if atLeast > .min {
            var scalars = 0
            var patternScalars = 0
            for t in start..<end where text[t] & 0xC0 != 0x80 { scalars += 1 }
            for b in pattern where b & 0xC0 != 0x80 { patternScalars += 1 }
            let gaps = scalars - patternScalars
            if ceiling(scalars: patternScalars) - (gaps > 0 ? gaps + 2 : 0) < atLeast { return nil }
        }
        return score(pattern, in: text, from: start, to: end, positions: positions)
    }

    /// fzf's `calculateScore`: the pattern matched greedily over `text[start ..< end]`.
    private static func score(
        _ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from start: Int,
        to end: Int, positions: UnsafeMutablePointer<[Int32]>?
    ) -> Int {
        var score = 0
        var p = 0
        var inGap = false
        var consecutive = 0
        var firstBonus = 0
        var previous = CharClass.whitespace
        if start > 0 {
            var b = start - 1
            while b > 0, text[b] & 0xC0 == 0x80 { b -= 1 }
            previous = CharClass(text[b])
        }
        var t = start
        while t < end {
            let current = CharClass(text[t])
            let n = scalarLength(text[t])
            if p < pattern.count, scalarLength(pattern[p]) == n, same(text, t, pattern, p, n) {
                positions?.pointee.append(Int32(t))
                score += scoreMatch
                var bonus = self.bonus(after: previous, on: current)
                if consecutive == 0 {
                    firstBonus = bonus
                } else {
                    if bonus >= bonusBoundary && bonus > firstBonus { firstBonus = bonus }
                    bonus = Swift.max(bonus, firstBonus, bonusConsecutive)
                }
                score += p == 0 ? bonus * firstCharMultiplier : bonus
                inGap = false
                consecutive += 1
                p += n
            } else {
                score += inGap ? gapExtension : gapStart
                inGap = true
                consecutive = 0
                firstBonus = 0
            }
            previous = current
            t += n
        }
        return score
    }
}
