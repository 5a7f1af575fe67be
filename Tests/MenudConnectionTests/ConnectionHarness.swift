import Logging
import MenuConfigLoading
import MenuCore
import MenuLoop
import MenuProtocol

@testable import menud

/// A daemon state on the built-in menu, without a state file, and connections to it
/// over ``MemoryTransport``s. The loop is never run: what the connection does with
/// bytes it does at once.
final class ConnectionHarness {
    let loop: EventLoop
    let service: MenuService
    let dispatcher: Dispatcher
    let processes: ProcessTable

    /// `menu`: a config's text; the built-in menu without one.
    init(commands: CommandTable = .standard, menu: String? = nil) throws {
        loop = try EventLoop()
        processes = ProcessTable(loop: loop)
        let config = try ConfigLoader.load(
            text: menu ?? BuiltinMenu.yaml, file: menu == nil ? BuiltinMenu.file : "test.yaml"
        ).get()
        service = MenuService(
            config: config, location: .builtin(awaiting: []), store: nil, processes: processes, loop: loop,
            logger: Logger(label: "test"))
        dispatcher = Dispatcher(service: service, commands: commands)
    }

    /// A daemon state serving the config at `configFile`, which a reload reads again.
    init(configFile: String) throws {
        loop = try EventLoop()
        processes = ProcessTable(loop: loop)
        let config = try ConfigLoader.load(path: configFile).get()
        service = MenuService(
            config: config, location: .file(configFile), store: nil, processes: processes, loop: loop,
            logger: Logger(label: "test"))
        dispatcher = Dispatcher(service: service, commands: .standard)
    }

    private var transports: [MemoryTransport] = []

    /// Runs the loop a turn at a time until `done`: each turn waits for the next
    /// event, so `done` must be what an event brings.
    func runLoop(until done: () -> Bool) {
        while !done() { loop.runOnce() }
    }

    /// As at a graceful stop: the clients go, and a children-cmd run still awaited,
    /// which holds the connection waiting for it and with it the state, is dropped.
    /// The handles the parts closed (an `on-change` run, its deadline) hold the loop
    /// until their close callbacks have run, which takes a turn of it.
    deinit {
        for transport in transports { transport.close() }
        service.close()
        processes.close()
        loop.runOnce()
    }

    /// A started connection: it has sent its greeting and reads.
    func connect() -> (ClientConnection, MemoryTransport) {
        let transport = MemoryTransport()
        let connection = ClientConnection(transport: transport, dispatcher: dispatcher)
        transport.onClose = { [weak connection] in connection?.closed() }
        connection.start()
        transports.append(transport)
        return (connection, transport)
    }
}

extension ClientConnection {
    func received(_ text: String) {
        Array(text.utf8).withUnsafeBytes { received($0) }
    }
}

/// The replies in `lines` (after the greeting): each reply's lines, ending with its
/// terminator.
func replies(_ lines: [String]) -> [[String]] {
    var replies: [[String]] = []
    var current: [String] = []
    for line in lines.dropFirst() {
        current.append(line)
        if line == "OK" || line.hasPrefix("ERR ") {
            replies.append(current)
            current = []
        }
    }
    return replies
}
