import ArgumentParser
import MenuConfigLoading
import MenuCore
import MenuProtocol

/// The model's share of the two requests the socket section sends, without a socket:
/// `get display/volume` with its row record written as bytes, and `toggle power`, on
/// the built-in menu. Meant for `valgrind --tool=callgrind`, whose instruction counts
/// (run it with two iteration counts and take the difference) do not move with the
/// machine's load the way the socket rows do.
struct HotPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hot-path", abstract: "Run get and toggle on the built-in menu, for callgrind.")

    @Argument(help: "How many get + toggle pairs.")
    var iterations: Int

    func run() throws {
        guard case .success(let config) = ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file)
        else {
            throw ExitCode(1)
        }
        let model = MenuModel(config: config)
        var bytes = 0
        for _ in 0..<iterations {
            var writer = RecordWriter()
            RowRecord(model.get(node: try model.node("display/volume"))).write(to: &writer)
            let change = try model.toggle(node: model.node("power"))
            bytes += writer.count + change.splices.count
        }
        print(bytes)
    }
}
