import MenuConfigLoading
import Testing

@testable import MenuCore

/// A request's path is looked up from its bytes, and a change's path is written as
/// bytes: both must agree with the `String` forms.
@Suite struct PathBytesTests {
    private static func builtin() throws -> MenuModel {
        MenuModel(config: try ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file).get())
    }

    private static func lookUp(_ path: String, in model: MenuModel) -> Int? {
        Array(path.utf8).withUnsafeBufferPointer { model.node(atPath: $0) }
    }

    @Test func everyNodeIsFoundFromItsPathsBytes() throws {
        let model = try Self.builtin()
        for n in 0..<model.nodeCount {
            let path = model.tree.path(n)
            #expect(Self.lookUp(path, in: model) == n)
            #expect(model.tree.node(at: path) == n)
            var bytes: [UInt8] = Array("x".utf8)
            model.tree.appendPath(of: n, to: &bytes)
            #expect(bytes == Array(("x" + path).utf8))
            #expect(model.tree.pathLength(n) == path.utf8.count)
        }
    }

    @Test func bytesAndStringsMissAndSkipEmptyComponentsAlike() throws {
        let model = try Self.builtin()
        for path in [
            "", "/", "nope", "apps/nope", "apps/browser/deeper", "apps//browser", "/display/volume/", "APPS",
        ] {
            #expect(Self.lookUp(path, in: model) == model.tree.node(at: path), "\(path)")
        }
        #expect(Self.lookUp("apps//browser", in: model) == model.tree.node(at: "apps/browser"))
        #expect(Self.lookUp("nope", in: model) == nil)
    }
}
