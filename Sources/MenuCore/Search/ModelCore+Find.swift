extension ModelCore {
    /// The nodes that match `query`, best first, at most `limit` of them: every node,
    /// hidden or not, children of `children-cmd` groups once loaded. See
    /// ``MenuModel/find(_:limit:)``.
    func find(_ query: String, limit: Int) throws(MenuError) -> [FoundNode] {
        guard (1...Self.maxFindLimit).contains(limit) else {
            throw .badQuery("the limit must be from 1 to \(Self.maxFindLimit), not \(limit)")
        }
        let query = try SearchQuery(query)
        var best: [(found: FoundNode, length: Int)] = []
        var positions: [Int32] = []
        var scratch: [UInt8] = []
        let need = query.letters
        let index = search
        index.text.withUnsafeBufferPointer { text in
            query.folded.withUnsafeBufferPointer { pattern in
                for i in 0..<tree.count {
                    let inTitle = need & ~index.titleLetters[i] == 0
                    let inPath = need & ~index.pathLetters[i] == 0
                    guard inTitle || inPath else { continue }
                    var found: FoundNode?
                    var length = 0
                    if inTitle {
                        if tree.titleTemplates[i] != nil {
                            scratch.removeAll(keepingCapacity: true)
                            TextFolding.fold(title(of: i), into: &scratch)
                            length = scratch.count
                            found = scratch.withUnsafeBufferPointer {
                                Self.match(
                                    query, pattern, in: $0, node: i, field: .title, positions: &positions)
                            }
                        } else {
                            let range = index.title(i)
                            length = range.count
                            found = Self.match(
                                query, pattern, in: UnsafeBufferPointer(rebasing: text[range]), node: i,
                                field: .title, positions: &positions)
                        }
                    }
                    if inPath {
                        scratch.removeAll(keepingCapacity: true)
                        appendFoldedPath(of: i, index: index, text: text, to: &scratch)
                        let onPath = scratch.withUnsafeBufferPointer {
                            Self.match(query, pattern, in: $0, node: i, field: .path, positions: &positions)
                        }
                        if let onPath, found.map({ onPath.score > $0.score }) ?? true {
                            found = onPath
                            length = scratch.count
                        }
                    }
                    guard let found else { continue }
                    if best.count == limit {
                        guard let last = best.last,
                            found.ranks(before: last.found, length: length, otherLength: last.length)
                        else { continue }
                        best.removeLast()
                    }
                    var low = 0
                    var high = best.count
                    while low < high {
                        let mid = (low + high) / 2
                        if best[mid].found.ranks(before: found, length: best[mid].length, otherLength: length)
                        {
                            low = mid + 1
                        } else {
                            high = mid
                        }
                    }
                    best.insert((found, length), at: low)
                }
            }
        }
        return best.map { $0.found }
    }

    /// Most answers one `find` gives.
    static let maxFindLimit = 10_000

    /// Every word of `query` matched in `text`: nil unless all match.
    private static func match(
        _ query: SearchQuery, _ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>,
        node: Int, field: FoundNode.Field, positions: inout [Int32]
    ) -> FoundNode? {
        positions.removeAll(keepingCapacity: true)
        var score = 0
        for word in query.words {
            guard
                let s = FuzzyMatch.match(
                    UnsafeBufferPointer(rebasing: pattern[word]), in: text, positions: &positions)
            else { return nil }
            score += s
        }
        let exact = field == .title && text.elementsEqual(pattern)
        return FoundNode(
            node: node, field: field, positions: scalarOffsets(of: positions, in: text), score: score,
            exact: exact)
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
