/// Access keys, as openbox gives its menu entries: each node may have one letter or
/// digit, unique among its siblings, that `nav key` and the tray's mnemonics use.
///
/// A node's key is its `key:`, else the first letter or digit of its title's literal
/// text that no sibling's `key:` and no earlier sibling's default key took. Keys are
/// compared without case, and the title's Latin letters count without their accents
/// (``TextFolding``), so `Écran` gets `e`. A node whose title has no free letter has
/// no key. Placeholders do not count: a key that moved with a value would not be
/// one a hand can learn.
extension MenuTree {
    /// The key byte of `c`: a lowercase ASCII letter or digit, or nil when `c` can be
    /// no key.
    package static func keyByte(_ c: Character) -> UInt8? {
        guard let ascii = c.asciiValue else { return nil }
        return keyByte(ascii)
    }

    /// The key byte of `text` when it is one letter or digit, as `key:` and `nav key`
    /// take a key; nil for anything else (`ab`, `!`, `é`, nothing).
    package static func keyByte(ofText text: some StringProtocol) -> UInt8? {
        guard text.count == 1, let c = text.first else { return nil }
        return keyByte(c)
    }

    /// The lowercase form of ASCII letter or digit `b`; nil for any other byte.
    @inline(__always) static func keyByte(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return b
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return b + 32
        default: return nil
        }
    }

    /// The bit of key byte `k` in a set of keys: 26 letters and 10 digits fit one word.
    @inline(__always) private static func bit(_ k: UInt8) -> UInt64 {
        k >= UInt8(ascii: "a") ? 1 << UInt64(k - UInt8(ascii: "a")) : 1 << UInt64(26 + k - UInt8(ascii: "0"))
    }

    /// Node `i`'s key, lowercase; nil when it has none.
    public func key(_ i: Int) -> Character? {
        keys[i] == 0 ? nil : Character(Unicode.Scalar(keys[i]))
    }

    /// The child of `parent` (nil: the top-level menus) whose key is `key`, in any
    /// case.
    public func child(of parent: Int?, key: Character) -> Int? {
        guard let k = MenuTree.keyByte(key) else { return nil }
        guard let parent else { return roots.first { keys[$0] == k } }
        return children(parent).first { keys[$0] == k }
    }

    /// Gives every node its key: one pass over each list of siblings, so linear in
    /// the nodes.
    mutating func assignKeys() {
        assignKeys(among: roots)
        // One buffer for every list: `children(_:)` would hold a copy of the tree,
        // and the first key written would then copy the whole array.
        var siblings: [Int] = []
        for i in 0..<count where childCounts[i] > 0 && !isVacant(i) {
            siblings.removeAll(keepingCapacity: true)
            let end = i + Int(sizes[i])
            var c = i + 1
            while c < end && depths[c] >= 0 {
                siblings.append(c)
                c += Int(sizes[c])
            }
            assignKeys(among: siblings)
        }
    }

    /// Keys for one list of siblings: their own keys first, then the defaults in
    /// order, each taking the first letter of its title that is still free.
    private mutating func assignKeys(among siblings: [Int]) {
        var taken: UInt64 = 0
        for i in siblings {
            keys[i] = explicitKeys[i] ?? 0
            if keys[i] != 0 { taken |= MenuTree.bit(keys[i]) }
        }
        for i in siblings where keys[i] == 0 {
            guard let k = freeKey(i, taken: taken) else { continue }
            keys[i] = k
            taken |= MenuTree.bit(k)
        }
    }

    /// The first letter or digit of node `i`'s title not in `taken`.
    private func freeKey(_ i: Int, taken: UInt64) -> UInt8? {
        func first(in text: String) -> UInt8? {
            for scalar in text.unicodeScalars {
                let folded = scalar.isASCII ? scalar : TextFolding.fold(scalar)
                guard folded.isASCII, let k = MenuTree.keyByte(UInt8(folded.value)) else { continue }
                if taken & MenuTree.bit(k) == 0 { return k }
            }
            return nil
        }
        guard let template = titleTemplates[i] else { return first(in: titles[i]) }
        for case .literal(let text) in template.segments {
            if let k = first(in: text) { return k }
        }
        return nil
    }
}
