import Logging
import MenuLoop

/// The applications part: the installed applications, scanned and watched while
/// the menu has a `children-from: applications` group, and the launcher that starts
/// their items.
final class ServedApplications {
    /// The scan and its watch, while a group shows them.
    var installed: InstalledApplications?
    let launcher: ApplicationLauncher

    init(processes: ProcessTable, loop: EventLoop, logger: Logger) {
        launcher = ApplicationLauncher(processes: processes, loop: loop, logger: logger)
    }

    func close() {
        installed?.close()
        installed = nil
        launcher.close()
    }
}
