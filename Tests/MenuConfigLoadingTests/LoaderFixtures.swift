import Foundation

/// The loader's fixtures, found from this source file so that tests read them in
/// place instead of bundling them.
enum LoaderFixtures {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixtures(in folder: String) -> [String] {
        let dir = fixtures.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    static func fixture(_ folder: String, _ name: String) -> String {
        fixtures.appendingPathComponent(folder).appendingPathComponent(name).path
    }
}
