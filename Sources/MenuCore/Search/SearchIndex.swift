/// What `find` searches: every node's title and keywords, folded (``TextFolding``)
/// into one buffer at load, with a 64-bit summary of the letters in each node's
/// title, in its keywords and in its path. A query's own summary rules out, with one AND, every node that lacks one of
/// its letters; only the rest are matched letter by letter. A splice of a group's
/// children replaces their entries, as it replaces them in the tree.
///
/// Paths need no text of their own: ids are ASCII (``NodeID``), so a path folds by
/// lowercasing the tree's own (``ModelCore/find(_:limit:)``).
///
/// Per node: where its title starts (its keywords follow it), the two lengths, and
/// the four summaries: 40 bytes, besides the text itself.
struct SearchIndex: Sendable {
    /// Folded titles. A splice appends the new nodes' titles and leaves the old
    /// nodes' in place until they are half of the buffer.
    private(set) var text: [UInt8] = []
    private(set) var starts: [UInt32] = []
    private(set) var titleLengths: [UInt16] = []
    /// The keywords' length, after the title in ``text``; 0 for most nodes.
    private(set) var keywordLengths: [UInt16] = []
    /// The letters of the node's title, or every bit for a title that shows values
    /// (``TitleTemplate``), which is matched as shown.
    private(set) var titleLetters: [UInt64] = []
    /// The letters of the node's keywords.
    private(set) var keywordLetters: [UInt64] = []
    /// The letters that start a word of its title or keywords (``FuzzyMatch``'s
    /// bonus goes to them): what a one-word query's best score there can be
    /// (``SearchQuery/bound(_:starts:)``). Every bit for a title that shows values.
    private(set) var startLetters: [UInt64] = []
    /// The letters of the ids on the node's path, and of the `/` between them.
    private(set) var pathLetters: [UInt64] = []
    /// Bytes of `text` that no node uses any more.
    private var unused = 0

    /// Longest title, or keywords, indexed, in bytes: a longer one is searched by its
    /// start.
    static let maxLength = Int(UInt16.max)

    init(tree: MenuTree) {
        let count = tree.count
        text.reserveCapacity(
            tree.titles.reduce(0) { $0 + $1.utf8.count }
                + tree.keywords.values.reduce(0) { $0 + $1.utf8.count })
        starts.reserveCapacity(count)
        titleLengths.reserveCapacity(count)
        keywordLengths.reserveCapacity(count)
        titleLetters.reserveCapacity(count)
        keywordLetters.reserveCapacity(count)
        startLetters.reserveCapacity(count)
        pathLetters.reserveCapacity(count)
        for i in 0..<count {
            let parentLetters = tree.parents[i] < 0 ? 0 : pathLetters[Int(tree.parents[i])]
            appendEntry(i, of: tree, parentLetters: parentLetters)
        }
    }

    private init() {}

    /// The bit of the 64 that stands for a folded scalar, given its first and last
    /// UTF-8 bytes: a–z and 0–9 have one each, the others share the rest.
    @inline(__always) static func bit(_ lead: UInt8, _ last: UInt8) -> UInt64 {
        switch lead {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return 1 << UInt64(lead - UInt8(ascii: "a"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 1 << UInt64(26 + lead - UInt8(ascii: "0"))
        case 0x80...: return 1 << UInt64(36 + Int(lead ^ last) % 20)
        default: return 1 << UInt64(56 + Int(lead) % 8)
        }
    }

    /// The letters of folded `bytes`, as ``titleLetters`` holds them.
    static func letters(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var letters: UInt64 = 0
        var k = 0
        while k < bytes.count {
            let n = FuzzyMatch.scalarLength(bytes[k])
            letters |= bit(bytes[k], bytes[min(k + n, bytes.count) - 1])
            k += n
        }
        return letters
    }

    /// The letters of folded `bytes` that start a word: the first, and those after
    /// a scalar that is not a letter or digit.
    static func startLetters(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var letters: UInt64 = 0
        var k = 0
        var atStart = true
        while k < bytes.count {
            let n = FuzzyMatch.scalarLength(bytes[k])
            let isWord = FuzzyMatch.CharClass(bytes[k]) == .word
            if atStart && isWord { letters |= bit(bytes[k], bytes[min(k + n, bytes.count) - 1]) }
            atStart = !isWord
            k += n
        }
        return letters
    }

    private mutating func appendEntry(_ i: Int, of tree: MenuTree, parentLetters: UInt64) {
        let start = text.count
        guard !tree.isVacant(i) else {
            starts.append(UInt32(start))
            titleLengths.append(0)
            keywordLengths.append(0)
            titleLetters.append(0)
            keywordLetters.append(0)
            startLetters.append(0)
            pathLetters.append(0)
            return
        }
        appendFolded(tree.titles[i])
        let keywordStart = text.count
        if let keywords = tree.keywords[i] { appendFolded(keywords) }
        var id = Array(tree.ids[i].utf8)
        for k in id.indices { id[k] = TextFolding.foldASCII(id[k]) }
        let (title, keywords, starting, idLetters) = text.withUnsafeBufferPointer { text in
            id.withUnsafeBufferPointer {
                (
                    Self.letters(of: UnsafeBufferPointer(rebasing: text[start..<keywordStart])),
                    Self.letters(of: UnsafeBufferPointer(rebasing: text[keywordStart...])),
                    Self.startLetters(of: UnsafeBufferPointer(rebasing: text[start..<keywordStart]))
                        | Self.startLetters(of: UnsafeBufferPointer(rebasing: text[keywordStart...])),
                    Self.letters(of: $0)
                )
            }
        }
        starts.append(UInt32(start))
        titleLengths.append(UInt16(keywordStart - start))
        keywordLengths.append(UInt16(text.count - keywordStart))
        titleLetters.append(tree.titleTemplates[i] == nil ? title : ~0)
        keywordLetters.append(keywords)
        startLetters.append(tree.titleTemplates[i] == nil ? starting : ~0)
        pathLetters.append(
            parentLetters | idLetters | (parentLetters == 0 ? 0 : Self.bit(UInt8(ascii: "/"), 0)))
    }

    /// Appends `string` folded, cut at ``maxLength`` bytes where a scalar starts, so
    /// that the text stays UTF-8.
    private mutating func appendFolded(_ string: String) {
        let start = text.count
        TextFolding.fold(string, into: &text)
        guard text.count - start > Self.maxLength else { return }
        var end = start + Self.maxLength
        while text[end] & 0xC0 == 0x80 { end -= 1 }
        text.removeLast(text.count - end)
    }

    /// The folded keywords of node `i`.
    func keywords(_ i: Int) -> Range<Int> {
        let start = Int(starts[i]) + Int(titleLengths[i])
        return start..<(start + Int(keywordLengths[i]))
    }

    /// The folded title of node `i`.
    func title(_ i: Int) -> Range<Int> {
        let start = Int(starts[i])
        return start..<(start + Int(titleLengths[i]))
    }

    /// Follows ``MenuTree/replaceChildren(of:with:)``: the slots `old` had became
    /// `new` in `tree`, and every slot after them moved by the difference.
    mutating func splice(old: Range<Int>, new: Range<Int>, in tree: MenuTree) {
        for i in old { unused += Int(titleLengths[i]) + Int(keywordLengths[i]) }
        // The new entries' text goes at the end of this index's buffer.
        var added = SearchIndex()
        swap(&added.text, &text)
        for i in new {
            let p = Int(tree.parents[i])
            let parentLetters = p < new.lowerBound ? pathLetters[p] : added.pathLetters[p - new.lowerBound]
            added.appendEntry(i, of: tree, parentLetters: parentLetters)
        }
        swap(&added.text, &text)
        starts.replaceSubrange(old, with: added.starts)
        titleLengths.replaceSubrange(old, with: added.titleLengths)
        keywordLengths.replaceSubrange(old, with: added.keywordLengths)
        titleLetters.replaceSubrange(old, with: added.titleLetters)
        keywordLetters.replaceSubrange(old, with: added.keywordLetters)
        startLetters.replaceSubrange(old, with: added.startLetters)
        pathLetters.replaceSubrange(old, with: added.pathLetters)
        if unused > text.count / 2 { compact() }
    }

    /// Copies the text that nodes use into a new buffer.
    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(text.count - unused)
        for i in starts.indices {
            let range = title(i).lowerBound..<keywords(i).upperBound
            starts[i] = UInt32(packed.count)
            packed.append(contentsOf: text[range])
        }
        text = packed
        unused = 0
    }

    /// The bytes the index holds, for the benchmark's memory figure.
    var byteCount: Int {
        text.capacity + starts.capacity * 4 + (titleLengths.capacity + keywordLengths.capacity) * 2
            + (titleLetters.capacity + keywordLetters.capacity + startLetters.capacity + pathLetters.capacity)
            * 8
    }
}
