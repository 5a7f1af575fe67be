import CUV

/// Tells when a descriptor that somebody else owns and reads is ready (`uv_poll`): a
/// library with its own socket and its own reading, such as sd-bus, is driven from
/// the loop by watching its descriptor for the events it asks for. The descriptor is
/// never read, written or closed here; close the watch before its owner closes it.
public final class DescriptorWatch: LoopHandle {
    /// What the descriptor is ready for, or what a watch waits for.
    public struct Events: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let readable = Events(rawValue: Int32(UV_READABLE.rawValue))
        public static let writable = Events(rawValue: Int32(UV_WRITABLE.rawValue))
    }

    /// Nil once closed: the memory is freed in the close callback.
    private var handle: UnsafeMutablePointer<uv_poll_t>?
    public let descriptor: Int32
    /// Called with the events that happened, or with the error that stopped the watch.
    public var onReady: ((Result<Events, UVError>) -> Void)?

    /// Watches nothing until ``watch(_:)``. libuv makes the descriptor non-blocking.
    public init(loop: EventLoop, descriptor: Int32) throws(UVError) {
        self.descriptor = descriptor
        handle = try allocateHandle(uv_poll_t.self) { uv_poll_init(loop.raw, $0, descriptor) }
    }

    /// Waits for `events` from now on, in place of what was waited for before; none
    /// stops the watch.
    public func watch(_ events: Events) throws(UVError) {
        guard let handle, uv_is_closing(asHandle(handle)) == 0 else { return }
        guard !events.isEmpty else {
            uv_poll_stop(handle)
            return
        }
        let rc = uv_poll_start(handle, events.rawValue) { handle, status, events in
            let watch = owner(of: handle, as: DescriptorWatch.self)
            watch.onReady?(status < 0 ? .failure(UVError(status)) : .success(Events(rawValue: events)))
        }
        if rc < 0 { throw UVError(rc) }
    }

    /// Stops watching for good and releases the handle; the descriptor stays open.
    public func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        onReady = nil
    }
}
