import Logging
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when the config file changes on disk, or appears. It watches the file's
/// directory rather than the file: editors that save by writing a new file and
/// renaming it over the old one (vim, most IDEs) replace the inode a file watch would
/// follow. Events are filtered by name. An editor's save is several events, and libuv
/// reports a write while it goes on, so ``onSettled`` waits until the events have
/// settled for ``settle``: one call per save, of the file as written.
///
/// A directory that does not exist cannot be watched, and a new user's
/// `~/.config/menud` usually does not: then the nearest ancestor that exists is
/// watched for the next directory on the way, and the watch moves down as the
/// directories appear (and up again if they are removed), so that a config created
/// later, directory and all, is seen.
final class ConfigWatch {
    /// How long a burst of events may pause without having ended.
    static let settle = Duration.milliseconds(50)

    /// The file watched for.
    let path: String
    private let name: String
    private let directory: String
    private let loop: EventLoop
    private let logger: Logger
    private var watch: FileWatch?
    /// The directory `watch` is on: `directory`, or its nearest existing ancestor.
    private var watched: String?
    private let timer: LoopTimer
    /// A burst of changes to the file, or to the directories on its way, has settled;
    /// the argument says whether the file exists now.
    var onSettled: ((Bool) -> Void)?

    /// Starts watching; nil, having logged why, when no directory on the way can be
    /// watched. Without a watch the daemon still serves, and SIGHUP and `reload` still
    /// work.
    init?(path: String, loop: EventLoop, logger: Logger) {
        self.path = path
        self.name = Self.lastComponent(path)
        self.directory = Directory.parent(of: path)
        self.loop = loop
        self.logger = logger
        timer = LoopTimer(loop: loop)
        guard arm() else {
            timer.close()
            return nil
        }
        timer.onFire = { [unowned self] in
            // The directories on the way may have come or gone: move the watch first,
            // then look, so that a file created in between is seen either way.
            _ = self.arm()
            self.onSettled?(access(path, F_OK) == 0)
        }
    }

    func close() {
        watch?.close()
        watch = nil
        timer.close()
        onSettled = nil
    }

    /// Puts the watch on the nearest directory of the file's that exists, unless it is
    /// there already. False, having logged why, when it cannot be watched.
    private func arm() -> Bool {
        let target = Self.nearestExisting(directory)
        if target == watched, watch != nil { return true }
        watch?.close()
        watch = nil
        watched = nil
        let next = target == directory ? name : Self.lastComponent(Self.child(of: target, toward: directory))
        let own = Self.lastComponent(target)
        let fresh: FileWatch
        do throws(UVError) {
            fresh = try FileWatch(loop: loop, path: target)
        } catch {
            logger.warning("cannot watch \(target) for changes: \(error)")
            return false
        }
        let timer = self.timer
        // Removals and mode changes count too: the file may be gone or unreadable, and
        // then the menu in memory is kept and the user told. The watched directory's
        // own name is its removal or renaming.
        fresh.onEvent = { event in
            if event.name == next || event.name == own { timer.start(after: Self.settle) }
        }
        fresh.onError = { [logger] error in logger.warning("watching \(target): \(error)") }
        watch = fresh
        watched = target
        if target == directory {
            logger.info("watching \(target) for changes to \(name)")
        } else {
            logger.info("watching \(target) for \(next), on the way to \(path)")
        }
        return true
    }

    /// `directory`, or its nearest ancestor that exists.
    static func nearestExisting(_ directory: String) -> String {
        var candidate = directory
        while !isDirectory(candidate) {
            let up = Directory.parent(of: candidate)
            if up == candidate { break }
            candidate = up
        }
        return candidate
    }

    /// The directory right below `ancestor` on the way to `directory`.
    static func child(of ancestor: String, toward directory: String) -> String {
        var child = directory
        while true {
            let up = Directory.parent(of: child)
            if up == ancestor || up == child { return child }
            child = up
        }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
