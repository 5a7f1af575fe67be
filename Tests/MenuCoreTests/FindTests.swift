import TestSupport
import Testing

@testable import MenuCore

/// `find`: fzf's ranking, folding of case and accents, what counts as a node, and
/// the queries it refuses.
@Suite struct FindTests {
    static func titled(_ id: String, _ title: String, _ children: [NodeSpec] = []) -> NodeSpec {
        NodeSpec(
            id: id, kind: children.isEmpty ? .item : .group, title: TitleTemplate(literal: title),
            children: children)
    }

    /// Applications, a settings tree with a value in a title, and accented titles; every
    /// group closed, so every node below the top is hidden.
    static var menu: MenuModel {
        MenuFixtures.model([
            Self.titled(
                "apps", "Applications",
                [
                    Self.titled("fire", "Fire"), Self.titled("firefox", "Firefox"),
                    Self.titled("firewall", "Firewall"),
                    Self.titled("files", "File manager"), Self.titled("firmware", "Firmware update"),
                    Self.titled("ecran", "Écran de veille"), Self.titled("arger", "Ärger"),
                    Self.titled("regex", "a.*b (x|y)"),
                ]),
            Self.titled(
                "settings", "Settings",
                [
                    Self.titled(
                        "network", "Network",
                        [
                            NodeSpec(
                                id: "wifi", kind: .toggle, title: TitleTemplate(parsing: "Wi-Fi: {value}"),
                                rule: .toggle, value: .toggle(true))
                        ])
                ]),
        ])
    }

    static func paths(_ query: String, limit: Int = 20, in model: MenuModel = menu) throws -> [String] {
        try model.find(query, limit: limit).map { model.tree.path($0.node) }
    }

    /// Queries and the order their answers come in: an exact title first, then word
    /// starts and letters together before scattered ones, then shorter titles.
    @Test(arguments: [
        ("fire", ["apps/fire", "apps/firefox", "apps/firewall", "apps/firmware"]),
        ("fm", ["apps/files", "apps/firmware"]),
        ("FIREFOX", ["apps/firefox"]),
        ("wall", ["apps/firewall"]),
        ("fi up", ["apps/firmware"]),
    ])
    func ranking(query: String, expected: [String]) throws {
        #expect(try Self.paths(query) == expected)
    }

    @Test func anExactTitleComesFirstWhateverItsScore() throws {
        let model = MenuFixtures.model([
            Self.titled("a", "Volume control"), Self.titled("b", "vol"), Self.titled("c", "Volumes"),
        ])
        #expect(try Self.paths("vol", in: model).first == "b")
        #expect(try model.find("vol", limit: 5).first?.exact == true)
    }

    @Test func accentsAndCaseFoldBothWays() throws {
        #expect(try Self.paths("ecran") == ["apps/ecran"])
        #expect(try Self.paths("ÉCRAN") == ["apps/ecran"])
        #expect(try Self.paths("arger") == ["apps/arger"])
        #expect(try Self.paths("ÄRGER") == ["apps/arger"])
        // A query typed with a combining accent finds the precomposed letter.
        #expect(try Self.paths("e\u{301}cran") == ["apps/ecran"])
    }

    @Test func positionsAreTheMatchedScalarsOfTheTitleAsShown() throws {
        let model = Self.menu
        let found = try #require(try model.find("wifi on", limit: 1).first)
        #expect(model.title(of: found.node) == "Wi-Fi: on")
        #expect(found.field == .title)
        #expect(found.positions == [0, 1, 3, 4, 7, 8])
        // After an accented letter, offsets count scalars, not bytes.
        let ecran = try #require(try model.find("veille", limit: 1).first)
        #expect(ecran.positions == Array(9...14))
    }

    @Test func aValueShownInATitleIsFoundAndFollowsTheValue() throws {
        let model = Self.menu
        #expect(try Self.paths("wifi on", in: model) == ["settings/network/wifi"])
        _ = try model.set("settings/network/wifi", "off")
        #expect(try Self.paths("wifi on", in: model).isEmpty)
        #expect(try Self.paths("wifi off", in: model) == ["settings/network/wifi"])
    }

    @Test func aPathMatchesWhereNoTitleDoes() throws {
        let model = Self.menu
        let found = try model.find("settings/net", limit: 5)
        #expect(found.map { model.tree.path($0.node) }.first == "settings/network")
        #expect(found.first?.field == .path)
    }

    @Test func hiddenNodesAndBreadcrumbs() throws {
        let model = Self.menu
        let n = try #require(try model.find("wi-fi", limit: 1).first?.node)
        #expect(model.rowIndex(of: n) == nil)
        #expect(model.breadcrumbs(of: n) == ["Settings", "Network"])
    }

    @Test func childrenOfACommandGroupAreFoundOnceLoadedAndNotOnceGone() throws {
        var dynamic = MenuFixtures.group("recent", [MenuFixtures.item("old")])
        dynamic.childrenCommand = "ls"
        let model = MenuFixtures.model([dynamic, Self.titled("other", "Other")])
        #expect(try Self.paths("notes", in: model).isEmpty)
        _ = try model.replaceChildren(
            of: "recent", with: [Self.titled("notes", "Notes.txt"), Self.titled("todo", "Todo list")],
            filling: { _ in [] })
        #expect(try Self.paths("notes", in: model) == ["recent/notes"])
        #expect(try Self.paths("other", in: model) == ["other"])
        _ = try model.replaceChildren(
            of: "recent", with: [Self.titled("todo", "Todo list")], filling: { _ in [] })
        #expect(try Self.paths("notes", in: model).isEmpty)
        #expect(try Self.paths("todo", in: model) == ["recent/todo"])
    }

    @Test func regularExpressionCharactersAreLiteral() throws {
        #expect(try Self.paths(".*") == ["apps/regex"])
        #expect(try Self.paths("(x|y)") == ["apps/regex"])
    }

    @Test func theLimitCutsTheRankedList() throws {
        #expect(try Self.paths("fire", limit: 2) == ["apps/fire", "apps/firefox"])
    }

    @Test(arguments: [
        ("", 5, "the query is empty"),
        ("   ", 5, "the query is empty"),
        ("a\u{7}b", 5, "the query holds a control character (U+7)"),
        ("a\tb", 5, "the query holds a control character (U+9)"),
        (String(repeating: "x", count: 257), 5, "the query is 257 bytes long; at most 256 are searched"),
        ("fire", 0, "the limit must be from 1 to 10000, not 0"),
        ("fire", 1_000_000_000, "the limit must be from 1 to 10000, not 1000000000"),
    ])
    func badQueries(query: String, limit: Int, message: String) {
        #expect(throws: MenuError.badQuery(message)) { try Self.menu.find(query, limit: limit) }
    }

    /// The eight-bytes-a-step scan finds what a byte-by-byte one finds, wherever the
    /// byte falls in a word and however long the text.
    @Test func theScanForAByteAgreesWithAPlainOne() {
        var rng = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let text = (0..<length).map { _ in UInt8.random(in: 0x61...0x66, using: &rng) }
            for byte in UInt8(0x61)...0x67 {
                for start in 0...length {
                    let plain = text[start...].firstIndex(of: byte) ?? length
                    let fast = text.withUnsafeBufferPointer {
                        FuzzyMatch.index(of: byte, in: $0, from: start)
                    }
                    #expect(fast == plain, "\(text) \(byte) from \(start)")
                }
            }
        }
    }

    /// Whether two indexes hold the same title for every node and the same
    /// summaries, wherever the titles sit in their buffers.
    static func sameEntries(_ a: SearchIndex, _ b: SearchIndex) -> Bool {
        a.titleLetters == b.titleLetters && a.pathLetters == b.pathLetters
            && a.starts.indices.allSatisfy { a.text[a.title($0)] == b.text[b.title($0)] }
    }

    /// A group whose command keeps printing new children leaves the old ones' titles
    /// behind in the index's buffer only until they are half of it.
    @Test func splicesDoNotGrowTheIndexWithoutBound() throws {
        var dynamic = MenuFixtures.group("recent", [MenuFixtures.item("old")])
        dynamic.childrenCommand = "ls"
        let model = MenuFixtures.model([dynamic, Self.titled("other", "Other")])
        for round in 0..<200 {
            let children = (0..<5).map { Self.titled("n\($0)", "Note \(round) number \($0)") }
            _ = try model.replaceChildren(of: "recent", with: children, filling: { _ in [] })
            let index = model.core.search
            let live = index.starts.indices.reduce(0) { $0 + index.title($1).count }
            #expect(index.text.count <= 2 * live + 64, "round \(round)")
        }
        #expect(try Self.paths("note 199 number 4", in: model) == ["recent/n4"])
        #expect(Self.sameEntries(model.core.search, SearchIndex(tree: model.tree)))
    }

    /// A title longer than the index keeps is cut where a character starts, and is
    /// still found by its start.
    @Test func aTitleOverTheIndexsLengthIsCutBetweenCharacters() throws {
        let long = String(repeating: "é", count: SearchIndex.maxLength)
        let model = MenuFixtures.model([Self.titled("long", long), Self.titled("other", "Other")])
        let index = model.core.search
        let title = Array(index.text[index.title(0)])
        #expect(title.count <= SearchIndex.maxLength)
        #expect(String(validating: title, as: UTF8.self) != nil)
        #expect(try Self.paths("eee", in: model) == ["long"])
    }
}
