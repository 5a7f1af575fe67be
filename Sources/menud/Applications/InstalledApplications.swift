import Logging
import MenuApplications
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The installed applications as the menu shows them, kept up to date: scanned on
/// libuv's thread pool (two thousand desktop entries take longer than the loop
/// should stop for), and scanned again when a watched `applications` directory
/// changes, once its events have settled. ``onChange`` is told only when what the
/// menu shows changed: a scan that finds the same entries changes nothing, and
/// nothing is scanned while no directory changes.
final class InstalledApplications {
    /// How long a burst of events (a package manager installing a dozen files) may
    /// pause without having ended.
    static let settle = Duration.milliseconds(100)
    /// The longest a burst is waited for: a file rewritten many times a second never
    /// pauses, and an entry installed beside it must still come.
    static let maxWait = Duration.seconds(1)
    /// The most directories watched: a tree of more is watched only this far.
    static let watchLimit = 256

    let environment: ApplicationEnvironment
    /// The menu of the last scan; nil until the first has ended.
    private(set) var menu: ApplicationMenu?
    /// Told when ``menu`` changed.
    var onChange: (() -> Void)?

    private let loop: EventLoop
    private let logger: Logger
    private let timer: LoopTimer
    private var watches: [String: FileWatch] = [:]
    /// For each `applications` directory that is missing, its nearest folder that is
    /// there, watched for the name that leads to it: re-creating a deleted
    /// directory, or making it for the first time, is then seen.
    private var parentWatches: [String: (names: Set<String>, watch: FileWatch)] = [:]
    /// When the first event of the burst under way came; nil between bursts.
    private var burstStarted: ContinuousClock.Instant?
    private var scanning = false
    /// A directory changed while a scan ran: what it read may be from before.
    private var changedMeanwhile = false
    private var closed = false
    /// The files skipped at the last scan, each logged once while it stays so.
    private var problems: Set<String> = []
    /// Those waiting for the first scan.
    private let firstScan = Completion<Void>()
    /// Those waiting for a scan that starts after they asked (``rescan()``).
    private var rescans: [Completion<Void>] = []

    /// Reads nothing until the owner's first ``scan()``: a scan that cannot go to
    /// the pool runs at once, and tells ``onChange``, which the owner sets first.
    init(environment: ApplicationEnvironment, loop: EventLoop, logger: Logger) {
        self.environment = environment
        self.loop = loop
        self.logger = logger
        timer = LoopTimer(loop: loop)
        timer.onFire = { [unowned self] in
            burstStarted = nil
            scan()
        }
    }

    /// Completes once the first scan has ended.
    var loaded: Completion<Void> { firstScan }

    func close() {
        closed = true
        timer.close()
        for watch in watches.values { watch.close() }
        for parent in parentWatches.values { parent.watch.close() }
        watches = [:]
        parentWatches = [:]
        onChange = nil
        firstScan.succeed(())
        for waiting in rescans { waiting.succeed(()) }
        rescans = []
    }

    /// Scans again, as ``scan()``; completes once a scan that started after this
    /// call has ended and its changes are in the menu. `refresh` on the group asks
    /// this.
    func rescan() -> Completion<Void> {
        let done = Completion<Void>()
        guard !closed else {
            done.succeed(())
            return done
        }
        rescans.append(done)
        scan()
        return done
    }

    /// Scans again, now or once the scan under way has ended.
    func scan() {
        guard !closed else { return }
        guard !scanning else {
            changedMeanwhile = true
            return
        }
        scanning = true
        changedMeanwhile = false
        let environment = self.environment
        let started = ContinuousClock.now
        let work: @Sendable () -> (ApplicationScan, ApplicationMenu) = {
            let scan = ApplicationScan(environment)
            return (scan, ApplicationMenu(scan.entries))
        }
        do throws(UVError) {
            try BackgroundWork.run(on: loop, work) { [self] in finish($0.0, $0.1, took: .now - started) }
        } catch {
            let (scan, menu) = work()
            finish(scan, menu, took: .now - started)
        }
    }

    private func finish(_ result: ApplicationScan, _ menu: ApplicationMenu, took: Duration) {
        scanning = false
        guard !closed else { return }
        let fresh = Set(result.problems)
        for problem in result.problems where !problems.contains(problem) {
            logger.warning("applications: \(problem)")
        }
        problems = fresh
        follow(result.directories)
        let first = self.menu == nil
        if first || self.menu?.entries != menu.entries {
            let ms = Int((took.seconds * 1000).rounded())
            logger.info(
                "applications: \(menu.entries.count) shown of \(result.filesRead) desktop files in \(result.directories.count) directories (\(ms) ms)"
            )
            self.menu = menu
            onChange?()
        }
        firstScan.succeed(())
        if changedMeanwhile {
            scan()
        } else {
            let done = rescans
            rescans = []
            for waiting in done { waiting.succeed(()) }
        }
    }

    /// Watches `directories`, and no others.
    private func follow(_ directories: [String]) {
        let wanted = Set(directories.prefix(Self.watchLimit))
        // A directory that came since the last scan was read before its watch was
        // there: what was written into it meanwhile is read by one more scan.
        let grown = menu != nil && wanted.contains { watches[$0] == nil }
        for (path, watch) in watches where !wanted.contains(path) {
            watch.close()
            watches[path] = nil
        }
        for path in directories.prefix(Self.watchLimit) where watches[path] == nil {
            do throws(UVError) {
                let watch = try FileWatch(loop: loop, path: path)
                watch.onEvent = { [unowned self] event in
                    // update-desktop-database writes mimeinfo.cache beside the entries:
                    // only entries and directories (names without a dot) count.
                    guard let name = event.name else { return changed() }
                    if name.hasSuffix(".desktop") || !name.contains(".") { changed() }
                }
                watch.onError = { [logger] error in logger.warning("applications: watching \(path): \(error)")
                }
                watches[path] = watch
            } catch {
                logger.warning("applications: cannot watch \(path) for changes: \(error)")
            }
        }
        followParents(of: environment.directories.filter { !wanted.contains($0) })
        if grown { changed() }
    }

    /// Watches the nearest folder that is there of each of `missing`, for the name
    /// that leads on to it, and no other folder.
    private func followParents(of missing: [String]) {
        var leading: [String: Set<String>] = [:]
        for directory in missing {
            var path = Substring(directory)
            while let slash = path.lastIndex(of: "/") {
                let parent = slash == path.startIndex ? "/" : String(path[..<slash])
                let name = String(path[path.index(after: slash)...])
                if Self.isDirectory(parent) {
                    if !name.isEmpty { leading[parent, default: []].insert(name) }
                    break
                }
                path = path[..<slash]
            }
        }
        for (path, parent) in parentWatches where leading[path] != parent.names {
            parent.watch.close()
            parentWatches[path] = nil
        }
        for (path, names) in leading where parentWatches[path] == nil {
            do throws(UVError) {
                let watch = try FileWatch(loop: loop, path: path)
                watch.onEvent = { [unowned self] event in
                    guard let name = event.name else { return changed() }
                    if names.contains(name) { changed() }
                }
                watch.onError = { [logger] error in logger.warning("applications: watching \(path): \(error)")
                }
                parentWatches[path] = (names, watch)
            } catch {
                logger.warning("applications: cannot watch \(path) for an applications folder: \(error)")
            }
        }
    }

    /// A watched folder changed: a scan once events pause for ``settle``, and at
    /// the latest ``maxWait`` after the first of them.
    private func changed() {
        let now = ContinuousClock.now
        let started = burstStarted ?? now
        burstStarted = started
        timer.start(after: max(.zero, min(Self.settle, Self.maxWait - (now - started))))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
