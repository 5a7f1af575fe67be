import Logging
import MenuCore
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The state file (docs/config.md, "State"): read once at start, written in
/// ``StateFileFormat`` by ``AtomicFile`` whenever the daemon asks. Writes run on
/// libuv's thread pool (``BackgroundWork``), since fsync can take long enough to
/// stall every client if the loop did it, and one after another, so an older
/// snapshot can never land after a newer one.
final class StateStore {
    let path: String
    private let loop: EventLoop
    private let logger: Logger
    /// The last write queued; the next one starts when it ends.
    private var lastWrite = Completion<Void>.succeeded(())
    /// Whether the last write failed. A full or read-only disk fails every write until
    /// someone fixes it, so the log says so once when that starts and once when it ends,
    /// not at every change in between.
    private var failing = false
    /// The entries the file holds: as read, or as last written; nil after a failed
    /// write. A write of the same entries would leave the file as it is, so it is not
    /// made, and a run in which nothing changed does not touch the file.
    private var written: Set<StateEntry>?

    init(path: String, loop: EventLoop, logger: Logger) {
        self.path = path
        self.loop = loop
        self.logger = logger
    }

    /// `$XDG_STATE_HOME/menud/state`, else `~/.local/state/menud/state`.
    static func defaultPath(environment: (String) -> String? = ProcessEnvironment.value) -> String {
        if let xdg = environment("XDG_STATE_HOME"), !xdg.isEmpty { return "\(xdg)/menud/state" }
        return "\(ProcessEnvironment.home(environment: environment))/.local/state/menud/state"
    }

    /// The largest state file read: what one user changes in menus is a few kilobytes,
    /// and a file of many megabytes (of unknown nodes, or one huge value) would hold up
    /// the start and the memory of the daemon for nothing.
    static let sizeLimit = 1 << 20

    /// The entries saved by the last run. No file is a first run. A file that cannot
    /// be read or parsed, or is larger than ``sizeLimit``, is moved aside
    /// (``SetAside``) and the run starts from the config's defaults: a damaged state
    /// file must never stop the menu.
    func read() -> [StateEntry] {
        let entries = readEntries()
        written = Set(entries)
        return entries
    }

    private func readEntries() -> [StateEntry] {
        let problem: String
        switch FileContents.read(path, limit: Self.sizeLimit) {
        case .failure(.missing):
            return []
        case .failure(let failure):
            problem = "cannot read it (\(failure.reason))"
        case .success(let bytes):
            if let text = String(validating: bytes, as: UTF8.self) {
                switch StateFileFormat.decode(text) {
                case .success(let entries): return entries
                case .failure(let p): problem = p.description
                }
            } else {
                problem = "not UTF-8 text"
            }
        }
        let problemText = LogText.cut(problem)
        switch SetAside.move(path) {
        case .success(let aside):
            logger.error(
                "state file \(path): \(problemText); moved it to \(aside), starting from the config's defaults"
            )
        case .failure(let failure):
            let reason = String(cString: strerror(failure.errno))
            logger.error(
                "state file \(path): \(problemText); cannot move it aside (\(reason)), starting from the config's defaults"
            )
        }
        return []
    }

    /// Queues a write of the state of `snapshot` and `kept` after any write already
    /// queued, unless it is what the file holds and not `always`. The entries are taken from the
    /// snapshot on the pool thread too: on a big menu that is no work for the loop. It
    /// fails with the write's error; the failure is logged here (once per run of
    /// failures), so callers need only pass it on to a client.
    func write(_ snapshot: ModelSnapshot, kept: [StateEntry], always: Bool = false) -> Completion<Void> {
        let path = self.path
        let loop = self.loop
        let next = Completion<Void>()
        lastWrite.whenComplete { _ in
            // The write before has ended: `written` is what the file holds.
            let known = always ? nil : self.written
            do throws(UVError) {
                try BackgroundWork.run(
                    on: loop, { StateWrite.run(snapshot, kept: kept, known: known, to: path) },
                    then: { outcome in
                        switch outcome {
                        case .unchanged:
                            next.succeed(())
                        case .written(let entries):
                            self.written = entries
                            next.succeed(())
                        case .failed(let failure):
                            // The file holds something else: the next write must be made.
                            self.written = nil
                            next.fail(failure)
                        }
                    })
            } catch {
                next.fail(error)
            }
        }
        next.whenComplete { result in
            switch result {
            case .success:
                if self.failing { self.logger.notice("state saved again to \(path)") }
                self.failing = false
            case .failure(let error):
                if !self.failing {
                    self.logger.error("cannot save state: \(error); will retry, and log when it works again")
                }
                self.failing = true
            }
        }
        // A failed write must not stop the ones after it: `whenComplete` above does
        // not look at the result.
        lastWrite = next
        return next
    }
}

/// One write of the state file, on a pool thread.
enum StateWrite: Sendable {
    case unchanged
    case written(Set<StateEntry>)
    case failed(AtomicFile.Failure)

    /// Writes the entries of `snapshot` and `kept` to `path`, unless they are `known`,
    /// what the file holds already: a run in which nothing changed does not touch it.
    static func run(_ snapshot: ModelSnapshot, kept: [StateEntry], known: Set<StateEntry>?, to path: String)
        -> StateWrite
    {
        let entries = snapshot.exportState() + kept
        let wanted = Set(entries)
        if wanted == known { return .unchanged }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(StateFileFormat.encode(entries), to: path)
            return .written(wanted)
        } catch {
            return .failed(error)
        }
    }
}
