import Dispatch

extension ModelCore {
    /// Most answers one `find` gives.
    static let maxFindLimit = 10_000
    /// Nodes a part of a search holds at least: a menu of fewer is searched on one
    /// core, since handing a part to another costs more than it saves.
    static let partSize = 1 << 17
    /// Most parts a search is split into.
    static let maxParts = 8

    /// What the parts of one search share: the model, which none of them changes, and
    /// the slots for their answers, one each.
    private struct SharedSearch: @unchecked Sendable {
        let core: ModelCore
        let kept: UnsafeMutableBufferPointer<[Candidate]>
    }

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
    func find(_ query: String, limit: Int, partSize: Int = Self.partSize) throws(MenuError) -> [FoundNode] {
        guard (1...Self.maxFindLimit).contains(limit) else {
            throw .badQuery("the limit must be from 1 to \(Self.maxFindLimit), not \(limit)")
        }
        let query = try SearchQuery(query)
        let count = search.titleLetters.count
        let parts = max(1, min(Self.maxParts, count / partSize))
        var best: [Candidate]
        if parts == 1 {
            best = candidates(query, limit: limit, in: 0..<count)
        } else {
            // A big menu is searched in parts, on as many cores as there are; each part
            // keeps its best, and they are merged.
            var kept = [[Candidate]](repeating: [], count: parts)
            kept.withUnsafeMutableBufferPointer { kept in
                let shared = SharedSearch(core: self, kept: kept)
                DispatchQueue.concurrentPerform(iterations: parts) { k in
                    shared.kept[k] = shared.core.candidates(
                        query, limit: limit, in: (count * k / parts)..<(count * (k + 1) / parts))
                }
            }
            best = kept[0]
            for part in kept.dropFirst() {
                for found in part { Self.keep(found, in: &best, limit: limit) }
            }
        }
        var scratch: [UInt8] = []
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

    /// The best `limit` of the nodes in `nodes` that match `query`, ranked.
    private func candidates(_ query: SearchQuery, limit: Int, in nodes: Range<Int>) -> [Candidate] {
        var best: [Candidate] = []
        best.reserveCapacity(min(limit, 64))
        var scratch: [UInt8] = []
        let need = query.letters
        let index = search
        index.text.withUnsafeBufferPointer { text in
            for i in nodes {
                let inTitle = need & ~index.titleLetters[i] == 0
                let inPath = need & ~index.pathLetters[i] == 0
                guard inTitle || inPath else { continue }
                var found: Candidate?
                if inTitle {
                    if index.titleLetters[i] == ~0, tree.titleTemplates[i] != nil {
                        found = match(query, in: .title, of: i, scratch: &scratch)
                    } else if !inPath, let last = best.count == limit ? best[limit - 1] : nil,
                        last.score == query.ceiling,
                        !Self.mayRank(titleLength: Int(index.titleLengths[i]), before: last, query)
                    {
                        // No title scores more than the last kept, and a later one ranks
                        // before it only when shorter, or exact: this one need not be
                        // scored. (With its path to match too, its score is needed.)
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
        return best
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

    /// Whether a title of `titleLength` bytes, of a node after `last`'s, can rank
    /// before it when both score the query's ceiling: only a shorter one, or one that
    /// may be the query exactly when `last` is not.
    @inline(__always) private static func mayRank(
        titleLength: Int, before last: Candidate, _ query: SearchQuery
    )
        -> Bool
    {
        if last.exact { return false }
        return titleLength < last.length || titleLength == query.folded.count
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
            let exact = field == .title && text.count == pattern.count && text.elementsEqual(pattern)
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
