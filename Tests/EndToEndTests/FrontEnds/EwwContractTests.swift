import Foundation
import TestSupport
import Testing

/// eww is not in Debian, so contrib/eww/menud.yuck cannot be run here. What it relies
/// on is checked instead: every `row.NAME` and `menud.NAME` it reads is a member that
/// `menuctl watch --format json` prints, for rows of every kind (the example menu has
/// groups, toggles, choices with options, ranges, text and dates).
@Suite(.ownThread) struct EwwContractTests {
    static let widget = TestPaths.packageRoot.appendingPathComponent("contrib/eww/menud.yuck").path

    static func references(_ prefix: String, in text: String) throws -> Set<String> {
        let pattern = try Regex("\\b\(prefix)\\.([a-z_]+)")
        return Set(text.matches(of: pattern).map { String($0.output[1].substring ?? "") })
    }

    @Test func everyMemberTheWidgetReadsIsPrinted() async throws {
        let widget = try String(contentsOfFile: Self.widget, encoding: .utf8)
        let rowMembers = try Self.references("row", in: widget)
        let stateMembers = try Self.references("menud", in: widget)
        #expect(
            rowMembers.isSuperset(of: ["path", "depth", "type", "title", "value", "min", "max", "focused"]))

        try await withDaemon(config: RenderFormatTests.example) { daemon throws in
            // Some groups are exclusive: each top-level menu is opened whole in turn.
            var rows: [[String: Any]] = []
            var object: [String: Any] = [:]
            for menu in [
                "apps", "settings/network", "settings/appearance", "settings/system", "display", "power",
            ] {
                #expect(try daemon.menuctl(["expand-to", menu]).status == 0)
                #expect(try daemon.menuctl(["expand-all", menu]).status == 0)
                object = try #require(
                    try JSONSerialization.jsonObject(
                        with: Data(try rendered(daemon, ["--format", "json"]).utf8)) as? [String: Any])
                rows += try #require(object["rows"] as? [[String: Any]])
            }
            let printed = rows.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
            #expect(
                rowMembers.subtracting(printed).isEmpty,
                "read but never printed: \(rowMembers.subtracting(printed))")
            let kinds = Set(rows.compactMap { $0["type"] as? String })
            #expect(
                kinds.isSuperset(of: ["group", "toggle", "choice", "option", "range", "text", "date"]),
                "\(kinds)")
            #expect(Set(object.keys).union(["disconnected"]).isSuperset(of: stateMembers))
        }
        // The member only an absent daemon's state has.
        let watch = try WatchProcess(
            socket: try TempDirectory().file("socket"), arguments: ["--format", "json"])
        defer { watch.stop() }
        let away = try #require(
            try JSONSerialization.jsonObject(with: Data(try await watch.nextLine("the absent state").utf8))
                as? [String: Any])
        #expect(away["disconnected"] as? Bool == true)
        #expect((away["rows"] as? [Any])?.isEmpty == true)
    }
}
