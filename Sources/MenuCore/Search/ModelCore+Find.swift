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
    fileprivate struct Candidate {
        var node: Int
        var field: FoundNode.Field
        /// How many of the query's words the node's own title or keywords hold: a
        /// word found there ranks above the same word found only in a group's title.
        var own: Int
        var score: Int
        var exact: Bool
        /// The matched text's length in bytes: the shorter ranks first on a tie.
        var length: Int
        /// Then the shallower: a top-level `yaml.h` above a deep `YAML.h`.
        var depth: Int32

        /// Exact first, then by the words the node holds itself, then by score, then
        /// the shorter text, then the shorter path, then the earlier node.
        func ranks(before other: Candidate) -> Bool {
            if exact != other.exact { return exact }
            if own != other.own { return own > other.own }
            if score != other.score { return score > other.score }
            if length != other.length { return length < other.length }
            if depth != other.depth { return depth < other.depth }
            return node < other.node
        }
    }

    /// The groups above the node a search is at, top first, each with the query's
    /// words that its title or a title above it holds, and each word's best score
    /// there. A search walks the tree in pre-order, so this is a stack: a group is
    /// pushed when the walk enters it and popped when the walk leaves its subtree.
    /// Its titles are matched only when a node below needs them (``Walk/wordsAbove()``):
    /// once the answers kept hold their words themselves, none does.
    fileprivate struct Ancestry {
        let wordCount: Int
        /// How many groups are above: the tables' first entries. Their storage is
        /// kept when the walk leaves a group, for the next one entered at that depth.
        var count = 0
        var nodes: [Int32] = []
        var matched: [UInt64] = []
        /// `wordCount` scores for each group, `Int.min` for a word not matched.
        var scores: [Int] = []
        /// How many groups, from the top, have their titles matched.
        var resolved = 0

        init(wordCount: Int) { self.wordCount = wordCount }

        /// The innermost group, or -1 at the top.
        var top: Int { count == 0 ? -1 : Int(nodes[count - 1]) }

        /// The best score of word `w` in the groups' titles, once resolved.
        func score(_ w: Int) -> Int { scores[(count - 1) * wordCount + w] }

        mutating func pop() {
            count -= 1
            resolved = min(resolved, count)
        }

        mutating func push(_ g: Int) {
            if count == nodes.count {
                nodes.append(0)
                matched.append(0)
                scores.append(contentsOf: repeatElement(.min, count: wordCount))
            }
            nodes[count] = Int32(g)
            count += 1
        }
    }

    /// The nodes that match `query`, best first, at most `limit` of them: every node,
    /// hidden or not, children of `children-cmd` groups once loaded. See
    /// ``MenuModel/find(_:limit:)``.
    func find(
        _ query: String, limit: Int, partSize: Int = Self.partSize, threads: Int = .max,
        onPartThread: (@Sendable () -> Void)? = nil
    ) throws(MenuError) -> [FoundNode] {
        guard (1...Self.maxFindLimit).contains(limit) else {
            throw .badQuery("the limit must be from 1 to \(Self.maxFindLimit), not \(limit)")
        }
        let query = try SearchQuery(query)
        let count = search.titleLetters.count
        let parts = max(1, min(Self.maxParts, threads, count / partSize))
        var best: [Candidate]
        if parts == 1 {
            best = candidates(query, limit: limit, in: 0..<count)
        } else {
            // A big menu is searched in parts, on as many cores as there are (at most
            // `threads`); each part keeps its best, and they are merged.
            var kept = [[Candidate]](repeating: [], count: parts)
            kept.withUnsafeMutableBufferPointer { kept in
                let shared = SharedSearch(core: self, kept: kept)
                DispatchQueue.concurrentPerform(iterations: parts) { k in
                    onPartThread?()
                    shared.kept[k] = shared.core.candidates(
                        query, limit: limit, in: (count * k / parts)..<(count * (k + 1) / parts))
                }
            }
            best = kept[0]
            for part in kept.dropFirst() {
                for found in part { Self.keep(found, in: &best, limit: limit) }
            }
        }
        // Positions for the answers kept only.
        return best.map { answer($0, query) }
    }

    /// The best `limit` of the nodes in `nodes` that match `query`, ranked.
    private func candidates(_ query: SearchQuery, limit: Int, in nodes: Range<Int>) -> [Candidate] {
        search.text.withUnsafeBufferPointer { text in
            query.folded.withUnsafeBufferPointer { pattern in
                var walk = Walk(core: self, query: query, text: text, pattern: pattern)
                return walk.run(nodes, limit: limit)
            }
        }
    }

    /// One part of a search, walking its nodes in order. Its state is its own, and
    /// its helpers are its methods rather than closures, which would box that state
    /// and check each access to it at run time.
    private struct Walk {
        let core: ModelCore
        let index: SearchIndex
        let query: SearchQuery
        let text: UnsafeBufferPointer<UInt8>
        let pattern: UnsafeBufferPointer<UInt8>
        var scratch: [UInt8] = []
        var ancestry: Ancestry

        init(
            core: ModelCore, query: SearchQuery, text: UnsafeBufferPointer<UInt8>,
            pattern: UnsafeBufferPointer<UInt8>
        ) {
            self.core = core
            index = core.search
            self.query = query
            self.text = text
            self.pattern = pattern
            ancestry = Ancestry(wordCount: query.words.count)
        }

        /// Word `w` matched in node `i`'s title as shown; nil also where it cannot
        /// score `atLeast`.
        @inline(__always) mutating func titleScore(_ w: Int, of i: Int, atLeast: Int = .min) -> Int? {
            guard query.wordLetters[w] & ~index.titleLetters[i] == 0 else { return nil }
            let word = UnsafeBufferPointer(rebasing: pattern[query.words[w]])
            if index.titleLetters[i] == ~0, core.tree.titleTemplates[i] != nil {
                core.append(.title, of: i, to: &scratch)
                return scratch.withUnsafeBufferPointer {
                    FuzzyMatch.match(word, in: $0, positions: nil, atLeast: atLeast)
                }
            }
            return FuzzyMatch.match(
                word, in: ModelCore.slice(text, index.title(i)), positions: nil, atLeast: atLeast)
        }

        /// Word `w` matched in node `i`'s title or keywords: the better score, or nil
        /// where neither can score `atLeast`. (The better of the two, not the title's
        /// first: with `atLeast` a weak title is left unscored, and the node's score
        /// must not depend on it.)
        @inline(__always) mutating func ownScore(_ w: Int, of i: Int, atLeast: Int) -> Int? {
            let found = titleScore(w, of: i, atLeast: atLeast)
            guard index.keywordLengths[i] > 0, query.wordLetters[w] & ~index.keywordLetters[i] == 0 else {
                return found
            }
            let word = UnsafeBufferPointer(rebasing: pattern[query.words[w]])
            guard
                let k = FuzzyMatch.match(
                    word, in: ModelCore.slice(text, index.keywords(i)), positions: nil, atLeast: atLeast)
            else { return found }
            return max(k, found ?? .min)
        }

        /// The words the titles of the groups above hold, their titles matched now
        /// where they were not yet.
        mutating func wordsAbove() -> UInt64 {
            while ancestry.resolved < ancestry.count {
                let k = ancestry.resolved
                let g = Int(ancestry.nodes[k])
                var words: UInt64 = k == 0 ? 0 : ancestry.matched[k - 1]
                for w in 0..<ancestry.wordCount {
                    let s = titleScore(w, of: g)
                    let inherited = k == 0 ? Int.min : ancestry.scores[(k - 1) * ancestry.wordCount + w]
                    if s != nil { words |= 1 << UInt64(w) }
                    ancestry.scores[k * ancestry.wordCount + w] = max(s ?? .min, inherited)
                }
                ancestry.matched[k] = words
                ancestry.resolved += 1
            }
            return ancestry.count == 0 ? 0 : ancestry.matched[ancestry.count - 1]
        }

        mutating func run(_ nodes: Range<Int>, limit: Int) -> [Candidate] {
            var best: [Candidate] = []
            best.reserveCapacity(min(limit, 64))
            let need = query.letters
            let all = query.allWords
            let wordCount = query.words.count
            let parents = core.tree.parents
            let sizes = core.tree.sizes
            let depths = core.tree.depths
            for i in nodes where depths[i] >= 0 {
                // The groups above `i`: leave those whose subtree ended; at a part's
                // start, enter those above it.
                let p = Int(parents[i])
                while ancestry.count > 0, ancestry.top != p { ancestry.pop() }
                if ancestry.count == 0, p >= 0 {
                    var chain: [Int] = []
                    var a = p
                    while a >= 0 {
                        chain.append(a)
                        a = Int(parents[a])
                    }
                    for g in chain.reversed() { ancestry.push(g) }
                }
                defer { if sizes[i] > 1 { ancestry.push(i) } }
                let possible = query.words(within: index.titleLetters[i] | index.keywordLetters[i])
                let inPath = need & ~index.pathLetters[i] == 0
                let titleLength = Int(index.titleLengths[i])
                if best.count == limit {
                    let last = best[limit - 1]
                    let most = possible.nonzeroBitCount
                    // Neither its own words nor its path can put it before the last kept.
                    if most < last.own { continue }
                    if last.own == wordCount, !inPath,
                        query.bound(starts: index.startLetters[i]) < last.score
                    {
                        // Holding every word itself, it cannot score the last kept's.
                        continue
                    }
                    if most == wordCount, last.own == wordCount, last.score == query.ceiling, !inPath,
                        index.titleLetters[i] != ~0,
                        !ModelCore.mayRank(titleLength: titleLength, depth: depths[i], before: last, query)
                    {
                        // No title scores more than the last kept, and a later one ranks
                        // before it only when shorter, or exact: this one need not be
                        // scored. (With its path to match too, its score is needed.)
                        continue
                    }
                }
                let above = possible == all ? 0 : wordsAbove()
                guard (possible | above) == all || inPath else { continue }
                var found: Candidate?
                if (possible | above) == all {
                    var ownWords = 0
                    var score = 0
                    var fromAbove = false
                    var matched = true
                    let floor = best.count == limit ? best[limit - 1].own : 0
                    // A one-word query's node ranks only by its own score: one that
                    // cannot reach the last kept's need not be scored.
                    let atLeast = wordCount == 1 && floor == 1 ? best[limit - 1].score : Int.min
                    for w in 0..<wordCount {
                        let bit: UInt64 = 1 << UInt64(w)
                        if possible & bit != 0, let s = ownScore(w, of: i, atLeast: atLeast) {
                            ownWords += 1
                            score += s
                        } else if ownWords + (possible & ~(bit | (bit - 1))).nonzeroBitCount < floor {
                            // Too few words of its own left to rank among those kept.
                            matched = false
                            break
                        } else if wordsAbove() & bit != 0 {
                            score += ancestry.score(w)
                            fromAbove = true
                        } else {
                            matched = false
                            break
                        }
                    }
                    if matched {
                        let exact =
                            !fromAbove && titleLength == pattern.count && index.titleLetters[i] != ~0
                            && ModelCore.slice(text, index.title(i)).elementsEqual(pattern)
                        found = Candidate(
                            node: i, field: fromAbove ? .breadcrumbs : .title, own: ownWords, score: score,
                            exact: exact, length: titleLength, depth: depths[i])
                    }
                }
                if inPath {
                    core.append(.path, of: i, to: &scratch)
                    let onPath = scratch.withUnsafeBufferPointer { [query, pattern] path in
                        ModelCore.score(query, pattern, in: path).map {
                            Candidate(
                                node: i, field: .path, own: 0, score: $0, exact: false, length: path.count,
                                depth: depths[i])
                        }
                    }
                    if let onPath, found.map({ onPath.ranks(before: $0) }) ?? true { found = onPath }
                }
                if let found { ModelCore.keep(found, in: &best, limit: limit) }
            }
            return best
        }
    }

    /// The answer for `candidate`, with the positions of what matched: in its title
    /// (words found in its keywords have none), its path, or its breadcrumbs, the
    /// titles of its groups and its own joined by ` › `.
    private func answer(_ candidate: Candidate, _ query: SearchQuery) -> FoundNode {
        var scratch: [UInt8] = []
        var offsets: [Int] = []
        var positions: [Int32] = []
        /// The positions of `word` in `text`, its scalars counted from `base`.
        func place(_ word: UnsafeBufferPointer<UInt8>, in text: [UInt8], from base: Int) -> Bool {
            positions.removeAll(keepingCapacity: true)
            return text.withUnsafeBufferPointer { text in
                guard FuzzyMatch.match(word, in: text, positions: &positions) != nil else { return false }
                offsets += Self.scalarOffsets(of: positions, in: text).map { $0 + base }
                return true
            }
        }
        let node = candidate.node
        query.folded.withUnsafeBufferPointer { pattern in
            switch candidate.field {
            case .path:
                append(.path, of: node, to: &scratch)
                for word in query.words {
                    _ = place(UnsafeBufferPointer(rebasing: pattern[word]), in: scratch, from: 0)
                }
            case .title:
                append(.title, of: node, to: &scratch)
                for word in query.words {
                    _ = place(UnsafeBufferPointer(rebasing: pattern[word]), in: scratch, from: 0)
                }
            case .breadcrumbs:
                // Each group's folded title, top first, then the node's own, with where
                // each starts in the breadcrumbs' scalars.
                var chain: [Int] = [node]
                while let p = tree.parent(chain[chain.count - 1]) { chain.append(p) }
                var segments: [(text: [UInt8], start: Int)] = []
                var start = 0
                for n in chain.reversed() {
                    append(.title, of: n, to: &scratch)
                    segments.append((scratch, start))
                    start += scratch.count { $0 & 0xC0 != 0x80 } + 3
                }
                for word in query.words {
                    let word = UnsafeBufferPointer(rebasing: pattern[word])
                    // Its own title first, then the group whose title scores it best.
                    if place(
                        word, in: segments[segments.count - 1].text, from: segments[segments.count - 1].start)
                    {
                        continue
                    }
                    var bestGroup: Int?
                    var bestScore = Int.min
                    for k in 0..<(segments.count - 1) {
                        let s = segments[k].text.withUnsafeBufferPointer {
                            FuzzyMatch.match(word, in: $0, positions: nil)
                        }
                        if let s, s > bestScore {
                            bestScore = s
                            bestGroup = k
                        }
                    }
                    if let k = bestGroup, !keywordsHold(word, node) {
                        _ = place(word, in: segments[k].text, from: segments[k].start)
                    }
                }
            }
        }
        let sorted = Array(Set(offsets)).sorted()
        return FoundNode(
            node: node, field: candidate.field, positions: sorted, score: candidate.score,
            exact: candidate.exact)
    }

    /// Whether node `i`'s keywords hold `word`.
    private func keywordsHold(_ word: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        search.text.withUnsafeBufferPointer {
            FuzzyMatch.match(word, in: Self.slice($0, search.keywords(i)), positions: nil) != nil
        }
    }

    @inline(__always) fileprivate static func slice(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        -> UnsafeBufferPointer<UInt8>
    {
        UnsafeBufferPointer(rebasing: text[range])
    }

    /// Replaces `bytes` with node `i`'s `field`, folded: the title as shown, or the
    /// path, whose ids fold by lowercasing (they are ASCII).
    fileprivate func append(_ field: FoundNode.Field, of i: Int, to bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        switch field {
        case .title, .breadcrumbs:
            TextFolding.fold(title(of: i), into: &bytes)
        case .path:
            MenuTree.appendPath(i, ids: tree.ids, parents: tree.parents, to: &bytes)
            for k in bytes.indices { bytes[k] = TextFolding.foldASCII(bytes[k]) }
        }
    }

    /// Whether a title of `titleLength` bytes at `depth`, of a node after `last`'s,
    /// can rank before it when both hold every word themselves and score the query's
    /// ceiling: only a shorter one, or as short and shallower, or one that may be the
    /// query exactly when `last` is not, or when it is and this one is shallower.
    @inline(__always) fileprivate static func mayRank(
        titleLength: Int, depth: Int32, before last: Candidate, _ query: SearchQuery
    ) -> Bool {
        if last.exact { return titleLength == query.folded.count && depth < last.depth }
        return titleLength < last.length || (titleLength == last.length && depth < last.depth)
            || titleLength == query.folded.count
    }

    /// Puts `found` in its place in `best`, ranked, dropping the last past `limit`.
    @inline(__always) fileprivate static func keep(_ found: Candidate, in best: inout [Candidate], limit: Int)
    {
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

    /// Every word of `query` matched in `text`: their scores' sum, nil unless all match.
    @inline(__always) fileprivate static func score(
        _ query: SearchQuery, _ pattern: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        var score = 0
        for word in query.words {
            guard
                let s = FuzzyMatch.match(
                    UnsafeBufferPointer(rebasing: pattern[word]), in: text, positions: nil)
            else { return nil }
            score += s
        }
        return score
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
