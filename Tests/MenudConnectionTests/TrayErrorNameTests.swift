import MenuProtocol
import Testing

@testable import menud

@Suite struct TrayErrorNameTests {
    /// Every code has a name, each a valid D-Bus name element, and no two alike.
    @Test func everyCodeHasItsOwnName() {
        let names = ErrorCode.allCases.map { TrayErrorName.names[$0] }
        #expect(!names.contains(nil))
        #expect(Set(names.compactMap { $0 }).count == ErrorCode.allCases.count)
        for name in names.compactMap({ $0 }) {
            #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(name)")
        }
        #expect(TrayErrorName.of(.notActivatable) == "org.menud.Error.NotActivatable")
        #expect(TrayErrorName.of(.internal) == "org.menud.Error.Internal")
    }
}
