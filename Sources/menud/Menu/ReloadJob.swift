import MenuApplications
import MenuConfigLoading
import MenuCore
import MenuLoop

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
    /// By their groups' paths, which the config's specs name them by.
    var loadedChildren: [String: LoadedChildren]
    /// What the `children-from` groups show, by source.
    var provided: [ChildrenSource: [NodeSpec]]
    /// Run once the config is read (``ReloadQueue/gate``).
    var gate: (@Sendable () -> Void)?

    func run() -> ReloadOutcome {
        let config: MenuConfig
        let signature: FileSignature?
        if let parsed {
            (config, signature) = parsed
        } else {
            signature = target.path.flatMap(FileSignature.of)
            let loaded = target.load()
            gate?()
            switch loaded {
            case .failure(let errors): return .failed(errors, signature)
            case .success(let loaded): config = loaded
            }
        }
        // Loaded children are kept only where the group still has the same command.
        let commands = config.fillingChildren(provided: provided) {
            loadedChildren[$0]?.children ?? [.loadingRow]
        }
        .childrenCommands
        let children = loadedChildren.filter { commands[$0.key] == $0.value.command }
        let filled = config.fillingChildren(provided: provided) {
            children[$0]?.children ?? [.loadingRow]
        }
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
                next: next, output: output, dropped: dropped,
                revision: old.revision))
    }
}

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
