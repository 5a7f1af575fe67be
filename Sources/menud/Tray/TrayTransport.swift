/// The tray's end of its in-process connection to the daemon: what the connection
/// writes is handed straight to ``onBytes``, and nothing ever waits to be sent.
final class TrayTransport: ConnectionTransport {
    /// The connection's replies and events, as it writes them.
    var onBytes: ((UnsafeRawBufferPointer) -> Void)?
    /// Told when the transport closes, as ``SocketConnection``'s `onClose` is.
    var onClose: (() -> Void)?
    private var isClosed = false

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        onBytes?(bytes)
    }

    var queuedBytes: Int { 0 }
    func startReading() {}
    func stopReading() {}
    func shutdown() { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        let told = onClose
        onClose = nil
        onBytes = nil
        told?()
    }
}
