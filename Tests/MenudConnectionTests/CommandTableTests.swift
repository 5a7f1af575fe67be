import MenuProtocol
import Testing

@testable import menud

/// The command table finds a request's command from the bytes of its first word.
@Suite struct CommandTableTests {
    private func resolve(_ line: String) -> Result<String, ProtocolError> {
        var words = RequestWords()
        let error = Array(line.utf8).withUnsafeBufferPointer { words.read($0) }
        if let error { return .failure(error) }
        do throws(ProtocolError) {
            return .success(try CommandTable.standard.resolve(words).command.name)
        } catch {
            return .failure(error)
        }
    }

    @Test func everyCommandIsFoundByItsName() {
        for command in CommandTable.standard.commands {
            let args = Array(repeating: "a", count: command.minArguments).joined(separator: " ")
            let found = try? resolve(command.name + (args.isEmpty ? "" : " " + args)).get()
            #expect(found == command.name)
        }
    }

    @Test(arguments: ["pin", "pingg", "PING", "tog", "toggle2", "x", "verylongnamethatnocommandhas", "é"])
    func otherWordsAreUnknown(name: String) {
        guard case .failure(let error) = resolve(name) else {
            Issue.record("\(name) resolved")
            return
        }
        #expect(error.code == .unknownCommand)
        #expect(error.message == "unknown command '\(name)': try 'help'")
    }
}
