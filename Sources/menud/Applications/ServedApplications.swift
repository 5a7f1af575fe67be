import Logging
import MenuApplications
import MenuLoop

/// The applications part: the installed applications, scanned and watched while
/// the menu has a `children-from: applications` group, and the launcher that starts
/// their items.
final class ServedApplications {
    /// The scan and its watch, while a group shows them.
    var installed: InstalledApplications?
    let launcher: ApplicationLauncher
    /// Where the scan's following is told of.
    let logger: Logger

    init(processes: ProcessTable, loop: EventLoop, logger: Logger) {
        self.logger = logger
        launcher = ApplicationLauncher(processes: processes, loop: loop, logger: logger)
    }

    /// How the item at `path` of `menu` starts its application, when it is one of
    /// an applications group's.
    func launch(at path: String, in menu: ServedMenu) -> ApplicationLaunch? {
        let model = menu.model
        guard let applications = installed?.menu, !menu.applicationGroups.isEmpty,
            let n = model.tree.node(at: path)
        else { return nil }
        // The model's own spelling of the path, which a group's path begins.
        let path = model.path(of: n)
        var group = Substring(path)
        while let slash = group.lastIndex(of: "/") {
            group = group[..<slash]
            if menu.applicationGroups.contains(String(group)) {
                return applications.launches[String(path.dropFirst(group.count + 1))]
            }
        }
        return nil
    }

    func close() {
        installed?.close()
        installed = nil
        launcher.close()
    }
}
