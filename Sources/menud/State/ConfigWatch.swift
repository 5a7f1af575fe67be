import Logging
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// Reloads when the config file changes on disk. It watches the file's directory
/// rather than the file: editors that save by writing a new file and renaming it over
/// the old one (vim, most IDEs) replace the inode a file watch would follow. Events
/// are filtered by name. An editor's save is several events, and libuv reports a
/// write while it goes on, so the reload waits until the events have settled for
/// ``settle``: one reload per save, of the file as written.
final class ConfigWatch {
    /// How long a burst of events may pause without having ended.
    static let settle = Duration.milliseconds(50)

    private let watch: FileWatch
    private let timer: LoopTimer

    /// Starts watching; nil, having logged why, when the directory cannot be watched.
    /// Without a watch the daemon still serves, and SIGHUP and `reload` still work.
    init?(path: String, state: DaemonState, logger: Logger) {
        let directory = Directory.parent(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        do throws(UVError) {
            watch = try FileWatch(loop: state.loop, path: directory)
        } catch {
            logger.warning("cannot watch \(directory) for changes: \(error)")
            return nil
        }
        timer = LoopTimer(loop: state.loop)
        let timer = self.timer
        // Removals and mode changes count too: the file may be gone or unreadable, and
        // then the menu in memory is kept and the user told.
        watch.onEvent = { event in
            if event.name == name { timer.start(after: Self.settle) }
        }
        watch.onError = { error in logger.warning("watching \(directory): \(error)") }
        timer.onFire = { [weak state] in
            guard let state else { return }
            if access(path, F_OK) == 0 {
                _ = state.reload(because: "config file changed")
            } else {
                logger.warning("\(path) was removed; keeping the current menu until it is back")
            }
        }
        logger.info("watching \(directory) for changes to \(name)")
    }

    func close() {
        watch.close()
        timer.close()
    }
}
