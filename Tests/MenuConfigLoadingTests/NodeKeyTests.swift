import Testing

@testable import MenuConfigLoading

/// `NodeKey(name:)` picks a candidate by length and first byte; these check that
/// it agrees with the keys' spelling for every key and refuses near misses.
@Suite struct NodeKeyTests {
    @Test(arguments: NodeKey.allCases)
    func everyKeyIsFoundByItsName(_ key: NodeKey) {
        #expect(NodeKey(name: key.name) == key)
    }

    @Test func namesThatAreNotKeysAreRefused() {
        // Same length and first letter as a key, a prefix, a different case, empty.
        for name in [
            "ix", "tilte", "mix", "man", "steps", "on-chang", "ID", "Title", "", "children-cmdx", "exe",
        ] {
            #expect(NodeKey(name: name) == nil, "\(name)")
        }
        for key in NodeKey.allCases {
            var near = Array(key.name.utf8)
            near[near.count - 1] ^= 0x20
            #expect(NodeKey(name: String(decoding: near, as: UTF8.self)) == nil, "\(key)")
        }
    }
}
