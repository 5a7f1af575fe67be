// libFuzzer target: any bytes as what one client sends, read by a ClientConnection
// over a transport in memory, in reads of a size the first byte picks, while a
// second connection subscribes to every topic and stops and starts reading. The
// daemon must never crash, every reply must end in exactly one terminator, and once
// the client's input ends and the daemon has answered it the connection must close.
//
// Built by Fuzz/run with menud's sources (all but its entry point and socket file)
// in this module, and MenuCore, MenuConfigLoading, MenuProtocol, MenuClient,
// MenuLoop and swift-log's Logging as modules of their own. The menu runs no
// command: it is the built-in one without its `exec`, `on-change` and `confirm`
// keys, served from a file of its own so that `reload` reads it again, so no input
// can start a process.

import Logging
import MenuConfigLoading
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The built-in menu, whose paths the docs and the tests use, without its
/// commands.
private let menu = BuiltinMenu.yaml.split(separator: "\n", omittingEmptySubsequences: false)
    .filter { line in ["exec:", "on-change:", "children-cmd:", "confirm:"].allSatisfy { !line.contains($0) } }
    .joined(separator: "\n")

/// What the connection writes, kept as the socket's peer would read it, and what
/// it leaves queued while the "peer" does not read.
private final class FuzzTransport: ConnectionTransport {
    var accepting = true
    var sent: [UInt8] = []
    var queued: [UInt8] = []
    var isShutDown = false
    var isClosed = false
    var onClose: (() -> Void)?

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isShutDown, !isClosed else { return }
        if accepting, queued.isEmpty { sent += bytes } else { queued += bytes }
    }
    var queuedBytes: Int { queued.count }
    func startReading() {}
    func stopReading() {}
    func shutdown() { isShutDown = true }
    func close() {
        guard !isClosed else { return }
        isClosed = true
        queued = []
        onClose?()
    }
    func drain() {
        sent += queued
        queued = []
    }
}

/// The menu as a file, so that `reload` reads it again rather than the built-in menu
/// with its commands; removed when the fuzzer exits.
private let menuFile: String = {
    let path = "/tmp/menud-fuzz-\(getpid()).yaml"
    check(!menu.contains("exec") && !menu.contains("on-change"), "the fuzzed menu has a command")
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    fputs(menu, file)
    fclose(file)
    atexit { unlink("/tmp/menud-fuzz-\(getpid()).yaml") }
    return path
}()
private let loop = try! EventLoop()
private let config: MenuConfig = {
    switch ConfigLoader.load(path: menuFile) {
    case .success(let config): return config
    case .failure(let errors):
        check(false, "the fuzzed menu does not load: \(errors)")
        fatalError()
    }
}()
private let quiet = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }

private func connect(_ state: MenuService) -> (ClientConnection, FuzzTransport) {
    let transport = FuzzTransport()
    let connection = ClientConnection(transport: transport, state: state)
    transport.onClose = { [weak connection] in connection?.closed() }
    connection.start()
    return (connection, transport)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConnection(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let readSize = Int(input[0] % 64) + 1
    let stalls = input[0] >= 128
    let state = MenuService(
        config: config, location: .file(menuFile), commands: .standard, store: nil, loop: loop, logger: quiet)
    let (subscriber, events) = connect(state)
    Array("subscribe\n".utf8).withUnsafeBytes { subscriber.received($0) }
    let (client, replies) = connect(state)

    var offset = 1
    var round = 0
    while offset < size {
        let end = min(offset + readSize, size)
        client.received(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[offset..<end])))
        offset = end
        round += 1
        // The client reads its replies in some rounds only, and the subscriber
        // stalls as the first byte says.
        if round % 3 != 0 {
            replies.drain()
            replies.accepting = true
            client.drained()
        } else {
            replies.accepting = false
        }
        if !stalls {
            events.drain()
            subscriber.drained()
        }
    }
    client.inputDidEnd()
    var rounds = 0
    while !replies.queued.isEmpty || !(replies.isShutDown || replies.isClosed) {
        // A `reload` is answered once its job on the thread pool is done: the loop
        // runs until no work is left.
        loop.run()
        replies.drain()
        replies.accepting = true
        client.drained()
        rounds += 1
        check(rounds < 100_000, "the connection neither answered nor closed")
    }
    check(
        endsWhole(replies.sent),
        "replies cut short: \(String(decoding: replies.sent.suffix(200), as: UTF8.self).debugDescription)")
    events.drain()
    check(
        events.isClosed || endsWhole(events.sent),
        "events cut short: \(String(decoding: events.sent.suffix(200), as: UTF8.self).debugDescription)")
    subscriber.close()
    client.close()
    return 0
}

/// Stops with `message` on stderr when `condition` is false: a precondition's
/// message is not printed in an optimised build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    fputs("ConnectionFuzz: \(message())\n", stderr)
    abort()
}

/// Whether `bytes` end after a whole reply (its `OK` or `ERR` line) or a whole event
/// group (its `end`): any connection may subscribe.
private func endsWhole(_ bytes: [UInt8]) -> Bool {
    guard bytes.last == UInt8(ascii: "\n") else { return bytes.isEmpty }
    var lastLine = bytes.dropLast()
    if let cut = lastLine.lastIndex(of: UInt8(ascii: "\n")) { lastLine = lastLine[(cut + 1)...] }
    let line = String(decoding: lastLine, as: UTF8.self)
    return line == "OK" || line.hasPrefix("OK ") || line.hasPrefix("ERR ")
        || (line.hasPrefix("event\t") && line.hasSuffix("\tend"))
}
