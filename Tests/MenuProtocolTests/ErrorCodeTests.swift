import MenuCore
import MenuProtocol
import Testing

@Suite struct ErrorCodeTests {
    /// Scripts match on these codes (docs/protocol.md, "Errors"), so each model error
    /// must keep the one it has always had.
    @Test func modelErrorsKeepTheirCodes() {
        let expected: [(MenuError, String)] = [
            (.noSuchNode("a"), "no-such-node"), (.badPath("a//b"), "no-such-node"),
            (.notExpandable("a"), "not-expandable"), (.notAValue("a"), "not-a-value"),
            (.invalidValue(path: "a", reason: "no"), "invalid-value"),
            (.notActivatable("a"), "not-activatable"), (.noSuchRow(9), "no-such-row"),
            (.notAMenu("a/b"), "not-a-menu"), (.notARange("a", kind: .toggle), "not-a-range"),
        ]
        for (error, code) in expected {
            #expect(ErrorCode(error).rawValue == code, "\(error)")
        }
    }

    @Test func theTerminatorCarriesTheModelsMessageEscaped() {
        let error = ProtocolError(MenuError.invalidValue(path: "name", reason: "a\ttab"))
        #expect(error.line == #"ERR invalid-value name: a\ttab"#)
    }
}
