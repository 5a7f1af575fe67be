import PropertyBased
import Testing

@testable import MenuCore

/// The journal's record of first states: a list while short, a list with a dictionary
/// beside it once long. Both must keep the first state per node and the order noted.
@Suite struct FirstStatesTests {
    @Test func keepsTheFirstStatePerNodeInOrder() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...40).array(of: 0...120)) { nodes in
            var states = FirstStates<Int>()
            var expected: [(Int, Int)] = []
            for (step, node) in nodes.enumerated() {
                states.note(node, step)
                if !expected.contains(where: { $0.0 == node }) { expected.append((node, step)) }
            }
            #expect(states.map(\.node) == expected.map(\.0))
            #expect(states.map(\.state) == expected.map(\.1))
            for node in 0...40 {
                #expect(states[node] == expected.first(where: { $0.0 == node })?.1)
            }
        }
    }
}
