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
    /// The children last printed by each `children-cmd` group's command, by path,
    /// until the group is closed. Commands are re-run when the group opens again, and
    /// while it is open for those with `refresh`.
    var loadedChildren: [String: LoadedChildren] = [:]
    /// The `children-cmd` groups of the current model, by path, with their commands.
    var commandGroups: [String: String]
    /// Those of them that run their command again while they are open (`refresh`),
    /// with how often.
    var refreshGroups: [String: Duration]
    /// The `children-from: applications` groups of the current model, by path.
    var applicationGroups: Set<String>
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
        let filled = config.fillingChildren { _ in [.loadingRow] }
        model = MenuModel(config: filled)
        commandGroups = filled.childrenCommands
        applicationGroups = filled.applicationGroups
        refreshGroups = model.refreshingGroups
        reloads.lastRead = location.path.flatMap(FileSignature.of)
    }

    func close() { isClosed = true }
}
