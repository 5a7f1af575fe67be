import Foundation
import Testing

/// MenuCore and MenuProtocol stay free of Foundation so that menuctl starts quickly
/// and the model and the wire format build anywhere the standard library does; a
/// stray import would undo both quietly.
@Suite struct CorePortabilityTests {
    @Test(arguments: ["MenuCore", "MenuProtocol"])
    func moduleImportsNoFoundation(module: String) throws {
        let sources = TestPaths.repository.appendingPathComponent("Sources/\(module)")
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
