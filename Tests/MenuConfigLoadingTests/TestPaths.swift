import Foundation

/// Locates the checked-out repository from this source file, so that tests read
/// fixtures and the example config in place instead of bundling them.
enum TestPaths {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")

    static func fixtures(in folder: String) -> [String] {
        let dir = fixtures.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    static func fixture(_ folder: String, _ name: String) -> String {
        fixtures.appendingPathComponent(folder).appendingPathComponent(name).path
    }
}
