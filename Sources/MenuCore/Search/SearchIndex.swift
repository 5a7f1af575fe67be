/// What `find` searches: every node's title and id, folded (``TextFolding``) into one
/// buffer at load, with a 64-bit summary of the letters in each node's title and in
/// its path. A query's own summary rules out, with one AND, every node that lacks
/// one of its letters; only the rest are matched letter by letter. A splice of a
/// group's children replaces their entries, as it replaces them in the tree.
///
/// Per node: where its text starts, its title's and id's lengths, and the two
/// summaries: 24 bytes, besides the text itself.
struct SearchIndex: Sendable {
    /// Folded titles and ids, each node's title followed by its id. A splice appends
    /// the new nodes' text and leaves the old nodes' in place until they are half of
    /// the buffer.
    private(set) var text: [UInt8] = []
    private(set) var starts: [UInt32] = []
    private(set) var titleLengths: [UInt16] = []
    private var idLengths: [UInt16] = []
    /// The letters of the node's title, or every bit for a title that shows values
    /// (``TitleTemplate``), which is matched as shown.
    private(set) var titleLetters: [UInt64] = []
    /// The letters of the ids on the node's path.
    private(set) var pathLetters: [UInt64] = []
    /// Bytes of `text` that no node uses any more.
    private var unused = 0

    /// Longest title or id indexed, in bytes: a longer one is searched by its start.
    static let maxLength = Int(UInt16.max)

    init(tree: MenuTree) {
        let count = tree.count
        starts.reserveCapacity(count)
        titleLengths.reserveCapacity(count)
        idLengths.reserveCapacity(count)
        titleLetters.reserveCapacity(count)
        pathLetters.reserveCapacity(count)
        for i in 0..<count {
            let parentLetters = tree.parents[i] < 0 ? 0 : pathLetters[Int(tree.parents[i])]
            appendEntry(i, of: tree, parentLetters: parentLetters)
        }
    }

    /// The bit of the 64 that stands for folded scalar `s` (its first UTF-8 byte's
    /// class for a non-ASCII one): a–z and 0–9 have one each.
    @inline(__always) static func bit(_ lead: UInt8, _ next: UInt8) -> UInt64 {
        switch lead {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return 1 << UInt64(lead - UInt8(ascii: "a"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 1 << UInt64(26 + lead - UInt8(ascii: "0"))
        case 0x80...: return 1 << UInt64(36 + Int(lead ^ next) % 20)
        default: return 1 << UInt64(56 + Int(lead) % 8)
        }
    }

    /// The letters of folded `bytes`, as ``titleLetters`` holds them.
    static func letters(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var letters: UInt64 = 0
        var k = 0
        while k < bytes.count {
            let lead = bytes[k]
            if lead < 0x80 {
                letters |= bit(lead, 0)
                k += 1
            } else {
                let n = FuzzyMatch.scalarLength(lead)
                letters |= bit(lead, k + n - 1 < bytes.count ? bytes[k + n - 1] : 0)
                k += n
            }
        }
        return letters
    }

    private mutating func appendEntry(_ i: Int, of tree: MenuTree, parentLetters: UInt64) {
        guard !tree.isVacant(i) else {
            starts.append(UInt32(text.count))
            titleLengths.append(0)
            idLengths.append(0)
            titleLetters.append(0)
            pathLetters.append(0)
            return
        }
        let start = text.count
        TextFolding.fold(tree.titles[i], into: &text)
        if text.count - start > Self.maxLength { text.removeLast(text.count - start - Self.maxLength) }
        let titleEnd = text.count
        TextFolding.fold(tree.ids[i], into: &text)
        if text.count - titleEnd > Self.maxLength { text.removeLast(text.count - titleEnd - Self.maxLength) }
        let (title, id) = text.withUnsafeBufferPointer {
            (
                Self.letters(of: UnsafeBufferPointer(rebasing: $0[start..<titleEnd])),
                Self.letters(of: UnsafeBufferPointer(rebasing: $0[titleEnd...]))
            )
        }
        starts.append(UInt32(start))
        titleLengths.append(UInt16(titleEnd - start))
        idLengths.append(UInt16(text.count - titleEnd))
        titleLetters.append(tree.titleTemplates[i] == nil ? title : ~0)
        // The path is the ids joined by `/`.
        pathLetters.append(parentLetters | id | (parentLetters == 0 ? 0 : Self.bit(UInt8(ascii: "/"), 0)))
    }

    /// The folded title of node `i`.
    func title(_ i: Int) -> Range<Int> {
        let start = Int(starts[i])
        return start..<(start + Int(titleLengths[i]))
    }

    /// The folded id of node `i`.
    func id(_ i: Int) -> Range<Int> {
        let start = Int(starts[i]) + Int(titleLengths[i])
        return start..<(start + Int(idLengths[i]))
    }

    /// Follows ``MenuTree/replaceChildren(of:with:)``: the slots `old` had became
    /// `new` in `tree`, and every slot after them moved by the difference.
    mutating func splice(old: Range<Int>, new: Range<Int>, in tree: MenuTree) {
        for i in old { unused += Int(titleLengths[i]) + Int(idLengths[i]) }
        var added = SearchIndex()
        added.text = []
        swap(&added.text, &text)
        for i in new {
            let p = Int(tree.parents[i])
            let parentLetters = p < new.lowerBound ? pathLetters[p] : added.pathLetters[p - new.lowerBound]
            added.appendEntry(i, of: tree, parentLetters: parentLetters)
        }
        swap(&added.text, &text)
        starts.replaceSubrange(old, with: added.starts)
        titleLengths.replaceSubrange(old, with: added.titleLengths)
        idLengths.replaceSubrange(old, with: added.idLengths)
        titleLetters.replaceSubrange(old, with: added.titleLetters)
        pathLetters.replaceSubrange(old, with: added.pathLetters)
        if unused > text.count / 2 { compact() }
    }

    private init() {}

    /// Copies the text that nodes use into a new buffer.
    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(text.count - unused)
        for i in starts.indices {
            let range = Int(starts[i])..<(Int(starts[i]) + Int(titleLengths[i]) + Int(idLengths[i]))
            starts[i] = UInt32(packed.count)
            packed.append(contentsOf: text[range])
        }
        text = packed
        unused = 0
    }

    /// The bytes the index holds, for the benchmark's memory figure.
    var byteCount: Int {
        text.capacity + starts.capacity * 4 + (titleLengths.capacity + idLengths.capacity) * 2
            + (titleLetters.capacity + pathLetters.capacity) * 8
    }

    /// Whether this index holds what one built from `tree` would: the same text for
    /// every node and the same summaries, wherever the text sits in the buffer.
    func isEquivalent(to other: SearchIndex) -> Bool {
        guard starts.count == other.starts.count, titleLetters == other.titleLetters,
            pathLetters == other.pathLetters
        else { return false }
        for i in starts.indices {
            guard text[title(i)] == other.text[other.title(i)], text[id(i)] == other.text[other.id(i)] else {
                return false
            }
        }
        return true
    }
}
