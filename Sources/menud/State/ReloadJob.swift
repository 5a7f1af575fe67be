import MenuCore
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The part of a reload done on libuv's thread pool: reading and checking the
/// config, building the new model and carrying the user's state over into it. On a
/// menu of a million nodes that takes seconds, while clients go on being served from
/// the old model. Everything it reads is a copy taken on the loop when it started;
/// what it makes is handed back whole, and the loop swaps it in only if the model
/// has not changed since (``MenuModel/revision``).
struct ReloadJob: Sendable {
    /// Where the config is read from.
    var target: ConfigLocation
    /// The config, already read by an earlier run whose carrying over came too late:
    /// the model changed while it ran.
    var parsed: (config: MenuConfig, signature: FileSignature?)?
    var old: ModelSnapshot
    var kept: [StateEntry]
    var loadedChildren: [String: LoadedChildren]
    /// Tests only: a FIFO opened once the config is read, which holds the job until
    /// the test opens its other end. Nothing else holds a reload in flight for as long
    /// as a test needs, however fast the machine.
    var gate: String?

    static let gateVariable = "MENUD_TEST_RELOAD_GATE"

    func run() -> ReloadOutcome {
        ThreadPriority.lowerToBackground()
        let config: MenuConfig
        let signature: FileSignature?
        if let parsed {
            (config, signature) = parsed
        } else {
            signature = target.path.flatMap(FileSignature.of)
            let loaded = target.load()
            if let gate {
                let fd = open(gate, O_RDONLY | O_CLOEXEC)
                if fd >= 0 { close(fd) }
            }
            switch loaded {
            case .failure(let errors): return .failed(errors, signature)
            case .success(let loaded): config = loaded
            }
        }
        // Loaded children are kept only where the group still has the same command.
        let commands = config.fillingChildren { loadedChildren[$0]?.children ?? [.loadingRow] }
            .childrenCommands
        let children = loadedChildren.filter { commands[$0.key] == $0.value.command }
        let filled = config.fillingChildren { children[$0]?.children ?? [.loadingRow] }
        let next = MenuModel(config: filled)
        let (change, dropped) = MenuModel(old).carryState(into: next, with: kept)
        // The records too: a reload that brings a hundred thousand new values has as
        // many records to write.
        var output = CommandOutput(listening: true)
        output.announce(["config", "reloaded", config.file], topics: .config)
        output.record(change, in: next, spliceTopics: [.expansion, .config])
        return .prepared(
            PreparedReload(
                target: target, config: config, signature: signature, loadedChildren: children,
                commandGroups: filled.childrenCommands, next: next, output: output, dropped: dropped,
                revision: old.revision))
    }
}

/// The children last printed by a `children-cmd` group's command.
typealias LoadedChildren = (command: String, children: [NodeSpec])

enum ReloadOutcome: Sendable {
    case failed(ConfigErrors, FileSignature?)
    case prepared(PreparedReload)

    var signature: FileSignature? {
        switch self {
        case .failed(_, let signature): signature
        case .prepared(let prepared): prepared.signature
        }
    }
}

/// A new model ready to be swapped in, with what the swap changes.
///
/// Unchecked: the model is made on a pool thread and handed to the loop whole; the
/// pool thread keeps no reference to it.
final class PreparedReload: @unchecked Sendable {
    let target: ConfigLocation
    let config: MenuConfig
    let signature: FileSignature?
    let loadedChildren: [String: LoadedChildren]
    let commandGroups: [String: String]
    let next: MenuModel
    /// The `config reloaded` record and the change's, for the reply and the subscribers;
    /// taken once (``takeOutput()``).
    private var output: CommandOutput?
    let dropped: [DroppedState]
    /// The old model's revision the change was computed from.
    let revision: Int

    init(
        target: ConfigLocation, config: MenuConfig, signature: FileSignature?,
        loadedChildren: [String: LoadedChildren], commandGroups: [String: String], next: MenuModel,
        output: CommandOutput, dropped: [DroppedState], revision: Int
    ) {
        self.target = target
        self.config = config
        self.signature = signature
        self.loadedChildren = loadedChildren
        self.commandGroups = commandGroups
        self.next = next
        self.output = output
        self.dropped = dropped
        self.revision = revision
    }

    /// The output, which the caller then holds the only reference to.
    func takeOutput() -> CommandOutput {
        defer { output = nil }
        return output ?? CommandOutput(listening: false)
    }
}

/// What a reload lets go of, freed on a pool thread: the old model and config, and
/// the change's records once written. Freeing a million nodes' strings, or a hundred
/// thousand changed paths, takes long enough to stall every client.
///
/// Unchecked: the loop hands over its last references.
final class Released: @unchecked Sendable {
    private var model: MenuModel?
    private var config: MenuConfig?
    private var output: CommandOutput?

    init(model: consuming MenuModel, config: consuming MenuConfig, output: consuming CommandOutput) {
        self.model = model
        self.config = config
        self.output = output
    }

    /// Frees them here, and gives the freed memory back to the system: glibc keeps
    /// it otherwise, and a daemon that once served a huge menu would stay its size.
    func free() {
        model = nil
        config = nil
        output = nil
        MemoryRelease.trim()
    }
}
