import Logging
import MenuCore

/// Everything the command handlers act on. The model is not thread-safe, so one
/// instance lives on the daemon's single event loop and is only ever touched there
/// (see ``MenuServer``); handlers receive it as a parameter rather than finding it.
final class DaemonState {
    let model: MenuModel
    let commands: CommandTable
    let launcher: CommandLauncher
    let logger: Logger
    /// The focus cursors `nav` moves and every render shows. They are not part of the
    /// model's undo journal, which is why `nav` and `focus` cannot be batched.
    var focus = FocusCursors()

    init(model: MenuModel, commands: CommandTable, launcher: CommandLauncher, logger: Logger) {
        self.model = model
        self.commands = commands
        self.launcher = launcher
        self.logger = logger
    }
}
