import CUV

/// Reports changes to a file, or to the entries of a directory (`uv_fs_event`, inotify
/// on Linux): menud's config watch. Editors that save by writing a new file and
/// renaming it over the old one replace the inode a watch on the file would follow,
/// so menud watches the config's directory and filters the events by ``Event/name``.
///
/// libuv reports a finished write as `change` events while it is being written (it
/// does not watch IN_CLOSE_WRITE): whoever acts on them waits for a burst to settle.
public final class FileWatch: LoopHandle {
    public struct Event: Sendable, Equatable {
        /// The entry that changed, for a watched directory; the file's own name, or
        /// nil, for a watched file.
        public var name: String?
        /// An entry appeared, disappeared or was renamed (`UV_RENAME`).
        public var renamed: Bool
        /// Contents or attributes changed (`UV_CHANGE`).
        public var changed: Bool

        public init(name: String?, renamed: Bool, changed: Bool) {
            self.name = name
            self.renamed = renamed
            self.changed = changed
        }
    }

    /// Nil once closed: the memory is freed in the close callback.
    private var handle: UnsafeMutablePointer<uv_fs_event_t>?
    public let path: String
    /// Each change, as it happens; dropped on close.
    public var onEvent: ((Event) -> Void)?
    /// The watch failed; it goes on only if the cause goes away.
    public var onError: ((UVError) -> Void)?

    /// Watches `path`, a directory or a file, until ``close()``.
    public init(loop: EventLoop, path: String) throws(UVError) {
        self.path = path
        let handle = try allocateHandle(uv_fs_event_t.self) { uv_fs_event_init(loop.raw, $0) }
        self.handle = handle
        let rc = uv_fs_event_start(
            handle,
            { handle, name, events, status in
                let watch = owner(of: handle, as: FileWatch.self)
                guard status >= 0 else {
                    watch.onError?(UVError(status))
                    return
                }
                watch.onEvent?(
                    Event(
                        name: name.map { String(cString: $0) },
                        renamed: events & Int32(UV_RENAME.rawValue) != 0,
                        changed: events & Int32(UV_CHANGE.rawValue) != 0))
            }, path, 0)
        guard rc == 0 else {
            close()
            throw UVError(rc)
        }
    }

    public func close() {
        if let handle { closeHandle(handle) }
    }

    func handleClosed() {
        handle = nil
        onEvent = nil
        onError = nil
    }
}
