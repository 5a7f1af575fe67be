/// The clients whose reads left replies to write in this turn of the loop, written
/// once the turn's events are handled (``MenuServer``, ``ClientConnection/onRepliesWaiting``).
///
/// An object of its own, held by the server and by each connection's closure, so
/// that neither call goes through an `unowned` reference to the server, which
/// costs a check per call.
final class WaitingReplies {
    private var connections: [ClientConnection] = []

    func add(_ connection: ClientConnection) { connections.append(connection) }

    /// Writes what every waiting client's reads left, one write per client.
    func writeAll() {
        guard !connections.isEmpty else { return }
        for connection in connections { connection.writeWaitingReplies() }
        connections.removeAll(keepingCapacity: true)
    }
}
