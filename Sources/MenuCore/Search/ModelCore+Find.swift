extension ModelCore {
    /// Most answers one `find` gives.
    static let maxFindLimit = 10_000

    /// A node that matched, before its positions are known: what the ranking keeps.
    private struct Candidate {
        var node: Int
        var field: FoundNode.Field
        var score: Int
        var exact: Bool
        /// The matched text's length in bytes: the shorter ranks first on a tie.
        var length: Int

        /// Exact first, then by score, then the shorter text, then the earlier node.
        func ranks(before other: Candidate) -> Bool {
            if exact != other.exact { return exact }
            if score != other.score { return score > other.score }
            if length != other.length { return length < other.length }
            return node < other.node
        }
    }

    /// The nodes that match `query`, best first, at most `limit` of them: every node,
    /// hidden or not, children of `children-cmd` groups once loaded. See
    /// ``MenuModel/find(_:limit:)``.
    func find(_ query: String, limit: Int) throws(MenuError) -> [FoundNode] {
        guard (1...Self.maxFindLimit).contains(limit) else {
            throw .badQuery("the limit must be from 1 to \(Self.maxFindLimit), not \(limit)")
        }
        let query = try SearchQuery(query)
        var best: [Candidate] = []
        best.reserveCapacity(min(limit, 64))
        var scratch: [UInt8] = []
        let need = query.letters
        let index = search
        index.text.withUnsafeBufferPointer { text in
            for i in 0..<index.titleLetters.count {
                let inTitle = need & ~index.titleLetters[i] == 0
                let inPath = need & ~index.pathLetters[i] == 0
                guard inTitle || inPath else { continue }
                var found: Candidate?
                if inTitle {
                    if index.titleLetters[i] == ~0, tree.titleTemplates[i] != nil {
                        found = match(query, in: .title, of: i, scratch: &scratch)
                    } else if let base = text.baseAddress {
                        // Most titles: matched where the index holds them, uncopied.
                        let title = UnsafeBufferPointer(
                            start: base + Int(index.starts[i]), count: Int(index.titleLengths[i]))
                        found = Self.candidate(query, in: title, node: i, field: .title)
                    }
                }
                if inPath, let onPath = match(query, in: .path, of: i, scratch: &scratch),
                    found.map({ onPath.score > $0.score }) ?? true
                {
                    found = onPath
                }
                if let found { Self.keep(found, in: &best, limit: limit) }
            }
        }
        // Positions for the answers kept only.
        return best.map { candidate in
            var positions: [Int32] = []
            append(candidate.field, of: candidate.node, to: &scratch)
            let offsets = scratch.withUnsafeBufferPointer { text in
                query.folded.withUnsafeBufferPointer { pattern in
                    for word in query.words {
                        _ = FuzzyMatch.match(
                            UnsafeBufferPointer(rebasing: pattern[word]), in: text, positions: &positions)
                    }
                    return Self.scalarOffsets(of: positions, in: text)
                }
            }
            return FoundNode(
                node: candidate.node, field: candidate.field, positions: offsets, score: candidate.score,
                exact: candidate.exact)
        }
    }

    /// Replaces `bytes` with node `i`'s `field`, folded: the title as shown, or the
    /// path, whose ids fold by lowercasing (they are ASCII).
    private func append(_ field: FoundNode.Field, of i: Int, to bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        switch field {
        case .title:
            TextFolding.fold(title(of: i), into: &bytes)
        case .path:
            MenuTree.appendPath(i, ids: tree.ids, parents: tree.parents, to: &bytes)
            for k in bytes.indices { bytes[k] = TextFolding.foldASCII(bytes[k]) }
        }
    }

    /// `query` matched in node `i`'s `field`, made in `scratch`.
    private func match(_ query: SearchQuery, in field: FoundNode.Field, of i: Int, scratch: inout [UInt8])
        -> Candidate?
    {
        append(field, of: i, to: &scratch)
        return scratch.withUnsafeBufferPointer { Self.candidate(query, in: $0, node: i, field: field) }
    }

    /// Puts `found` in its place in `best`, ranked, dropping the last past `limit`.
    @inline(__always) private static func keep(_ found: Candidate, in best: inout [Candidate], limit: Int) {
        if best.count == limit {
            guard found.ranks(before: best[limit - 1]) else { return }
            best.removeLast()
        }
        var low = 0
        var high = best.count
        while low < high {
            let mid = (low + high) / 2
            if best[mid].ranks(before: found) { low = mid + 1 } else { high = mid }
        }
        best.insert(found, at: low)
    }

    /// Every word of `query` matched in `text`: nil unless all match.
    @inline(__always) private static func candidate(
        _ query: SearchQuery, in text: UnsafeBufferPointer<UInt8>, node: Int, field: FoundNode.Field
    ) -> Candidate? {
        query.folded.withUnsafeBufferPointer { pattern in
            var score = 0
            for word in query.words {
                guard
                    let s = FuzzyMatch.match(
                        UnsafeBufferPointer(rebasing: pattern[word]), in: text, positions: nil)
                else { return nil }
                score += s
            }
            let exact = field == .title && text.elementsEqual(pattern)
            return Candidate(node: node, field: field, score: score, exact: exact, length: text.count)
        }
    }

    /// Byte offsets in UTF-8 `text` as offsets in its scalars, ascending and once each.
    private static func scalarOffsets(of bytes: [Int32], in text: UnsafeBufferPointer<UInt8>) -> [Int] {
        let sorted = bytes.count > 1 ? Array(Set(bytes)).sorted() : bytes
        var out: [Int] = []
        out.reserveCapacity(sorted.count)
        var scalar = 0
        var b = 0
        for offset in sorted {
            while b < Int(offset) {
                if text[b] & 0xC0 != 0x80 { scalar += 1 }
                b += 1
            }
            out.append(scalar)
        }
        return out
    }
}
