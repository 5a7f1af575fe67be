import Foundation
import MenuConfigLoading
import MenuCore
import Testing

/// Each file in Fixtures/bad breaks one rule and lists, in `# error:` comments at
/// its top, exactly the errors loading it must report.
@Suite struct BadConfigFixtureTests {
    @Test func thereIsAFixturePerRule() {
        #expect(LoaderFixtures.fixtures(in: "bad").count >= 40)
    }

    @Test(arguments: LoaderFixtures.fixtures(in: "bad"))
    func reportsExactlyTheListedErrors(_ name: String) throws {
        let path = LoaderFixtures.fixture("bad", name)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("# error: ") }
            .map { String($0.dropFirst("# error: ".count)) }
        #expect(!expected.isEmpty, "\(name) lists no expected errors")
        switch ConfigLoader.load(path: path) {
        case .success:
            Issue.record("\(name) loaded without errors")
        case .failure(let failure):
            let actual = failure.errors.map { "\($0.mark.line):\($0.mark.column): \($0.message)" }
            #expect(actual == expected, "\(name)")
            #expect(failure.errors.allSatisfy { $0.file == path })
        }
    }
}
