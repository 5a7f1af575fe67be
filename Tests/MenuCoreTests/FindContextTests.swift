import Testing

@testable import MenuCore

/// What `find` matches besides a node's own title: the titles of its groups (its
/// breadcrumbs) and its keywords, and how those rank against the title.
@Suite struct FindContextTests {
    static func titled(
        _ id: String, _ title: String, _ children: [NodeSpec] = [], keywords: [String] = []
    ) -> NodeSpec {
        NodeSpec(
            id: id, kind: children.isEmpty ? .item : .group, title: TitleTemplate(literal: title),
            children: children, keywords: keywords)
    }

    /// An applications menu as the applications provider makes it: categories, and
    /// applications whose generic names and categories are keywords.
    static var menu: MenuModel {
        MenuFixtures.model([
            titled(
                "start", "Start",
                [
                    titled(
                        "internet", "Internet",
                        [
                            titled("dillo", "Dillo", keywords: ["Web Browser", "Network WebBrowser"]),
                            titled("mail", "Thunderbird", keywords: ["Mail Client", "Network Email"]),
                        ]),
                    titled(
                        "system", "System",
                        [
                            titled(
                                "foot", "Foot", keywords: ["Terminal", "shell prompt command commandline"]),
                            titled("xterm", "XTerm", keywords: ["Terminal emulator", "System"]),
                            titled("monitor", "Internet Monitor"),
                        ]),
                ])
        ])
    }

    static func paths(_ query: String, limit: Int = 20, in model: MenuModel = menu) throws -> [String] {
        try model.find(query, limit: limit).map { model.tree.path($0.node) }
    }

    @Test func keywordsFindANodeWithoutShowingIt() throws {
        #expect(try Self.paths("terminal") == ["start/system/foot", "start/system/xterm"])
        #expect(try Self.paths("browser") == ["start/internet/dillo"])
        let model = Self.menu
        let foot = try #require(try model.find("terminal", limit: 1).first)
        // Nothing shown matched, so no letter is marked.
        #expect(foot.field == .title && foot.positions.isEmpty)
        #expect(model.title(of: foot.node) == "Foot")
    }

    @Test func aGroupsTitleFindsTheNodesBelowIt() throws {
        // Each word in a title of the breadcrumbs "Start › Internet › Dillo".
        #expect(try Self.paths("internet dillo") == ["start/internet/dillo"])
        let model = Self.menu
        let dillo = try #require(try model.find("internet dillo", limit: 1).first)
        #expect(dillo.field == .breadcrumbs)
        // "Start › Internet › Dillo": Internet is scalars 8 to 15, Dillo 19 to 23.
        #expect(dillo.positions == Array(8...15) + Array(19...23))
    }

    @Test func aWordInTheNodesOwnTitleRanksAboveTheSameInAGroupsTitle() throws {
        // The group itself and a title holding the word come before the nodes that
        // are found only because they are in the Internet group.
        let found = try Self.paths("internet")
        #expect(
            found == [
                "start/internet", "start/system/monitor", "start/internet/dillo", "start/internet/mail",
            ])
    }

    @Test func amongExactTitlesTheShorterPathRanksFirst() throws {
        let model = MenuFixtures.model([
            Self.titled("include", "include", [Self.titled("yaml", "YAML.h")]),
            Self.titled("deep", "deep", [Self.titled("deeper", "deeper", [Self.titled("yaml", "yaml.h")])]),
            Self.titled("yaml", "yaml.h"),
        ])
        #expect(try Self.paths("yaml.h", in: model) == ["yaml", "include/yaml", "deep/deeper/yaml"])
        #expect(try model.find("yaml.h", limit: 3).allSatisfy { $0.exact })
    }

    @Test func aWordGivenTwiceCountsOnce() throws {
        let model = Self.menu
        let once = try model.find("term", limit: 5)
        let many = try model.find(Array(repeating: "term", count: 50).joined(separator: " "), limit: 5)
        #expect(once == many)
    }

    @Test func tooManyDifferentWordsAreRefused() {
        let query = (0..<65).map { "w\($0)" }.joined(separator: " ")
        #expect(throws: MenuError.badQuery("the query has 65 different words; at most 64 are searched")) {
            try Self.menu.find(query, limit: 5)
        }
    }

    @Test func keywordsFollowASplice() throws {
        let model = Self.menu
        _ = try model.replaceChildren(
            of: "start/internet", with: [Self.titled("lynx", "Lynx", keywords: ["text browser"])],
            filling: { _ in [] })
        #expect(try Self.paths("browser", in: model) == ["start/internet/lynx"])
        #expect(try Self.paths("lynx browser", in: model) == ["start/internet/lynx"])
    }
}
