import MenuProtocol

/// Sends a value node's new values as its control moves (a slider dragged, a wheel
/// turned): at most one `set` for the node is in flight, and the last value the
/// control had is always the one sent last. Values that came while a `set` was in
/// flight are dropped but the newest, so a drag costs the daemon what it can answer
/// and no more.
public final class ValueSender {
    private let session: PopupSession
    private let path: String
    private var inFlight = false
    private var pending: String?

    /// Called with each `set`'s reply: an `ERR` is a refused value, to be shown.
    public var onReply: (ProtocolReply) -> Void = { _ in }

    public init(session: PopupSession, path: String) {
        self.session = session
        self.path = path
    }

    /// Whether a value is on its way or waiting for one that is.
    public var isBusy: Bool { inFlight || pending != nil }

    public func send(_ value: String) throws(PopupSession.Failure) {
        guard !inFlight else {
            pending = value
            return
        }
        inFlight = true
        try session.send(["set", path, value]) { [weak self] reply in
            guard let self else { return }
            self.inFlight = false
            self.onReply(reply)
            if let next = self.pending {
                self.pending = nil
                try? self.send(next)
            }
        }
    }
}
