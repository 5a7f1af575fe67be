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
            query.folded.withUnsafeBufferPointer { pattern in
                index.titleLetters.withUnsafeBufferPointer { titleLetters in
                    index.pathLetters.withUnsafeBufferPointer { pathLetters in
                        index.starts.withUnsafeBufferPointer { starts in
                            index.titleLengths.withUnsafeBufferPointer { titleLengths in
                                for i in 0..<titleLetters.count {
                                    let inTitle = need & ~titleLetters[i] == 0
                                    let inPath = need & ~pathLetters[i] == 0
                                    guard inTitle || inPath else { continue }
                                    var found: Candidate?
                                    if inTitle {
                                        if titleLetters[i] == ~0, tree.titleTemplates[i] != nil {
                                            scratch.removeAll(keepingCapacity: true)
                                            TextFolding.fold(title(of: i), into: &scratch)
                                            found = scratch.withUnsafeBufferPointer {
                                                Self.candidate(query, pattern, in: $0, node: i, field: .title)
                                            }
                                        } else if titleLengths[i] > 0, let base = text.baseAddress {
                                            let title = UnsafeBufferPointer(
                                                start: base + Int(starts[i]), count: Int(titleLengths[i]))
                                            found = Self.candidate(
                                                query, pattern, in: title, node: i, field: .title)
                                        }
                                    }
                                    if inPath {
                                        scratch.removeAll(keepingCapacity: true)
                                        appendFoldedPath(of: i, index: index, text: text, to: &scratch)
                                        let onPath = scratch.withUnsafeBufferPointer {
                                            Self.candidate(query, pattern, in: $0, node: i, field: .path)
                                        }
                                        if let onPath, found.map({ onPath.score > $0.score }) ?? true {
                                            found = onPath
                                        }
                                    }
                                    guard let found else { continue }
                                    Self.keep(found, in: &best, limit: limit)
                                }
                            }
                        }
                    }
                }
            }
        }
        // Positions for the answers kept only.
        return best.map { candidate in
            var positions: [Int32] = []
            scratch.removeAll(keepingCapacity: true)
            switch candidate.field {
            case .title:
                if tree.titleTemplates[candidate.node] != nil {
                    TextFolding.fold(title(of: candidate.node), into: &scratch)
                } else {
                    scratch.append(contentsOf: index.text[index.title(candidate.node)])
                }
            case .path:
                index.text.withUnsafeBufferPointer {
                    appendFoldedPath(of: candidate.node, index: index, text: $0, to: &scratch)
                }
            }
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
        _ query: SearchQuery, _ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>,
        node: Int, field: FoundNode.Field
    ) -> Candidate? {
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

    /// The folded ids of `i`'s path, joined by `/`.
    private func appendFoldedPath(
        of i: Int, index: SearchIndex, text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]
    ) {
        var length = -1
        var n = i
        while n >= 0 {
            length += index.id(n).count + 1
            n = Int(tree.parents[n])
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "/"), count: length))
        var end = bytes.count
        n = i
        while n >= 0 {
            let id = index.id(n)
            end -= id.count
            bytes.replaceSubrange(end..<(end + id.count), with: UnsafeBufferPointer(rebasing: text[id]))
            end -= 1
            n = Int(tree.parents[n])
        }
    }
}
