import Logging
import MenuCore
import MenuProtocol

/// The menu being served: its model, the config it was built from and where that
/// comes from, what its `children-cmd` groups last printed, and the reloads asked
/// for. The model is not thread-safe, so this lives on the daemon's loop and is only
/// touched there; a reload's work on a pool thread reads a snapshot of it.
final class ServedMenu {
    /// Replaced as a whole by a reload.
    var model: MenuModel {
        didSet { rowRecords = RowRecordCache() }
    }
    /// The rows' records as `get` and `row` last wrote them, for this model.
    var rowRecords = RowRecordCache()
    /// Where the config comes from, to load it again on reload. The built-in menu
    /// becomes a file when a reload finds one at a default path.
    var location: ConfigLocation
    /// Told when ``location`` changed, for the config watch to follow it.
    var onLocationChange: (() -> Void)?
    /// Told after a reload succeeded, for what follows the config's settings (the tray).
    var onReload: (() -> Void)?
    /// The config as last loaded successfully.
    var config: MenuConfig
    /// The children last printed by each `children-cmd` group's command, by node,
    /// until the group is closed. Commands are re-run when the group opens again, and
    /// while it is open for those with `refresh`.
    var loadedChildren: [Int: LoadedChildren] = [:]
    /// The nodes that runs and timers under way stand for.
    let refs = NodeRefs()
    /// The reloads asked for and the one under way.
    var reloads = ReloadQueue()
    /// Where the reloads are told of.
    let logger: Logger
    /// Set by ``close()``: the menu is served no more, and nothing more is started
    /// for it.
    private(set) var isClosed = false

    /// The menu of `config`, its `children-cmd` and `children-from` groups showing
    /// "Loading…".
    init(config: MenuConfig, location: ConfigLocation, logger: Logger) {
        self.logger = logger
        self.config = config
        self.location = location
        model = MenuModel(config: config.fillingChildren { _ in [.loadingRow] })
        reloads.lastRead = location.path.flatMap(FileSignature.of)
    }

    func close() { isClosed = true }

    /// The loaded children and the refs, after the model's nodes moved.
    func renumber(_ number: Renumbering) {
        loadedChildren = loadedChildren.renumbered(number)
        refs.renumber(number)
    }

    /// The loaded children by their groups' paths, for what builds a tree from
    /// specs (a reload, a splice), which names groups so.
    var loadedChildrenByPath: [String: LoadedChildren] {
        Dictionary(uniqueKeysWithValues: loadedChildren.map { (model.path(of: $0.key), $0.value) })
    }
}
