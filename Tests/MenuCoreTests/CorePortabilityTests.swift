import Foundation
import Testing

/// MenuCore, MenuConfigLoading and MenuProtocol stay free of Foundation so that
/// menuctl and menud start quickly and the model, the loader and the wire format
/// build anywhere the standard library does; a stray import would undo both quietly.
@Suite struct CorePortabilityTests {
    /// The checked-out repository, found from this source file.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["MenuCore", "MenuConfigLoading", "MenuProtocol"])
    func moduleImportsNoFoundation(module: String) throws {
        let sources = Self.repository.appendingPathComponent("Sources/\(module)")
        // Every file, in the module's folders too.
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter {
            $0.hasSuffix(".swift")
        }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n")
            where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") {
                #expect(!line.contains("Foundation"), "\(file): \(line)")
            }
        }
    }
}
