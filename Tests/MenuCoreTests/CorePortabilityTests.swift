import Foundation
import Testing

/// MenuCore stays free of Foundation so that menuctl starts quickly and the model
/// builds anywhere the standard library does; a stray import would undo both quietly.
@Suite struct CorePortabilityTests {
    @Test func menuCoreImportsNoFoundation() throws {
        let sources = TestPaths.repository.appendingPathComponent("Sources/MenuCore")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter {
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
