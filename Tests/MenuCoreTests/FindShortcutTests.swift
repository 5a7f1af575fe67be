import PropertyBased
import Synchronization
import Testing

@testable import MenuCore

/// What `find` does to be fast on a big menu changes no answer: titles that cannot
/// rank before the last kept answer are not scored, and a big menu is searched in
/// parts whose answers are merged.
@Suite struct FindShortcutTests {
    /// Few words, so that many titles share the best score a query can have (a word
    /// that is the query) and only their length and order rank them.
    static let words = [
        "net", "network", "wifi", "sound", "volume", "vol", "café", "écran", "settings", "set",
    ]

    /// A menu from `numbers`: each a node, its title one or two words of ``words``,
    /// under an earlier group (at most four deep) or at the top as the number says;
    /// some ids are words too, so that paths match, and some nodes have a word of
    /// keywords. Groups' titles hold the words too, so that nodes match through them.
    static func menu(_ numbers: [Int]) -> MenuModel {
        var children: [Int: [Int]] = [:]
        var tops: [Int] = []
        var groups: [(node: Int, depth: Int)] = []
        for (k, n) in numbers.enumerated() {
            var depth = 0
            if groups.isEmpty || n % 4 == 0 {
                tops.append(k)
            } else {
                let parent = groups[n % groups.count]
                children[parent.node, default: []].append(k)
                depth = parent.depth + 1
            }
            if n % 2 == 0, depth < 4 { groups.append((k, depth)) }
        }
        func spec(_ k: Int) -> NodeSpec {
            let n = numbers[k]
            let a = words[n % words.count]
            let b = words[(n / words.count) % words.count]
            let id = n % 5 == 0 ? "\(a.filter(\.isASCII))\(k)" : "n\(k)"
            let below = (children[k] ?? []).map(spec)
            return NodeSpec(
                id: id, kind: n % 2 == 0 ? .group : .item,
                title: TitleTemplate(literal: n % 3 == 0 ? a : "\(a) \(b)"), children: below,
                keywords: n % 7 == 0 ? [words[(n / 100) % words.count]] : [])
        }
        return MenuFixtures.model(tops.map(spec))
    }

    static let queries = [
        "net", "vol", "set", "cafe", "ecran", "ne wi", "sw", "n", "et", "nwk", "network", "sound wifi",
        "set vol net",
    ]

    static func answers(_ found: [FoundNode], _ model: MenuModel) -> [String] {
        found.map { "\(model.tree.path($0.node)) \($0.field) \($0.score) \($0.exact) \($0.positions)" }
    }

    @Test func titlesLeftUnscoredCouldNotHaveRanked() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...10_000).array(of: 1...300)) { numbers in
            let model = Self.menu(numbers)
            for query in Self.queries {
                // With room for every answer, none is left unscored.
                let all = try Self.answers(model.find(query, limit: 10_000), model)
                for limit in [1, 3, 10] {
                    #expect(
                        try Self.answers(model.find(query, limit: limit), model) == Array(all.prefix(limit)),
                        "\(query), \(limit)")
                }
            }
        }
    }

    @Test func aMenuSearchedInPartsGivesTheAnswersOfOneSearch() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...10_000).array(of: 1...300)) { numbers in
            let model = Self.menu(numbers)
            for query in Self.queries {
                for limit in [1, 5, 50] {
                    let whole = try Self.answers(model.find(query, limit: limit, partSize: .max), model)
                    for partSize in [1, 7, 40] {
                        #expect(
                            try Self.answers(model.find(query, limit: limit, partSize: partSize), model)
                                == whole,
                            "\(query), \(limit), parts of \(partSize)")
                    }
                }
            }
        }
    }

    /// A search in parts takes no more threads at once than it is given: a daemon
    /// gives its pool's size, and a search of its big menu leaves the loop a core.
    /// Each part runs on a thread of its own and calls `onPartThread` there; a
    /// search in one part runs on the caller's thread alone.
    @Test(arguments: [(threads: Int.max, parts: 8), (3, 3), (2, 2), (1, 0)])
    func aSearchInPartsTakesNoMoreThreadsThanItIsGiven(threads: Int, parts: Int) throws {
        let model = Self.menu(Array(0..<400))
        let whole = try Self.answers(model.find("net", limit: 20, partSize: .max), model)
        let calls = Mutex(0)
        let found = try model.find("net", limit: 20, partSize: 10, threads: threads) {
            calls.withLock { $0 += 1 }
        }
        #expect(calls.withLock { $0 } == parts)
        #expect(Self.answers(found, model) == whole)
    }
}
