import MenuLoop

/// What a ``ClientConnection`` needs of the byte stream under it. ``SocketConnection``
/// is the real one; a test's in-memory transport lets the connection be driven
/// without a socket or a loop.
protocol ConnectionTransport: AnyObject {
    /// Sends `bytes` after whatever is queued; the transport copies what it keeps.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The bytes written but not yet taken by the peer's socket.
    var queuedBytes: Int { get }
    func startReading()
    func stopReading()
    /// Sends what is queued, then ends the sending side and closes.
    func shutdown()
    /// Closes now, dropping what is queued.
    func close()
}

extension SocketConnection: ConnectionTransport {}
