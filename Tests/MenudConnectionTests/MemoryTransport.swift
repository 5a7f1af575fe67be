@testable import menud

/// A transport in memory: what the connection writes lands in ``sent`` while the
/// "peer" takes bytes, and waits in ``queued`` while it does not, as in a socket
/// whose reader has stopped.
final class MemoryTransport: ConnectionTransport {
    /// Whether written bytes are taken at once.
    var accepting = true
    private(set) var sent: [UInt8] = []
    private(set) var queued: [UInt8] = []
    private(set) var isReading = false
    private(set) var isShutDown = false
    private(set) var isClosed = false
    /// Called when the transport closes, as ``SocketConnection/onClose`` is.
    var onClose: (() -> Void)?

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isShutDown, !isClosed else { return }
        if accepting, queued.isEmpty { sent += bytes } else { queued += bytes }
    }

    var queuedBytes: Int { queued.count }

    func startReading() { if !isShutDown, !isClosed { isReading = true } }

    func stopReading() { isReading = false }

    func shutdown() {
        guard !isShutDown, !isClosed else { return }
        isShutDown = true
        isReading = false
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        isReading = false
        queued = []
        onClose?()
    }

    /// The peer reads everything queued.
    func drain() {
        accepting = true
        sent += queued
        queued = []
    }

    /// What was sent, as lines.
    var lines: [String] {
        String(decoding: sent, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
            .map(String.init)
    }
}
