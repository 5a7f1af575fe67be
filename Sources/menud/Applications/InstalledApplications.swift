import Logging
import MenuApplications
import MenuLoop

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
        timer.onFire = { [unowned self] in self.scan() }
    }

    /// Completes once the first scan has ended.
    var loaded: Completion<Void> { firstScan }

    func close() {
        closed = true
        timer.close()
        for watch in watches.values { watch.close() }
        watches = [:]
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
            ThreadPriority.lowerToBackground()
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
                let timer = self.timer
                watch.onEvent = { event in
                    // update-desktop-database writes mimeinfo.cache beside the entries:
                    // only entries and directories (names without a dot) count.
                    guard let name = event.name else { return timer.start(after: Self.settle) }
                    if name.hasSuffix(".desktop") || !name.contains(".") { timer.start(after: Self.settle) }
                }
                watch.onError = { [logger] error in logger.warning("applications: watching \(path): \(error)")
                }
                watches[path] = watch
            } catch {
                logger.warning("applications: cannot watch \(path) for changes: \(error)")
            }
        }
        if grown { timer.start(after: Self.settle) }
    }
}
