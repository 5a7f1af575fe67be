import Logging
import MenuApplications
import MenuCore
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

    /// How item `n` of `model` starts its application, when it is one of an
    /// applications group's.
    func launch(of n: Int, in model: MenuModel) -> ApplicationLaunch? {
        guard let applications = installed?.menu else { return nil }
        var parent = model.tree.parent(n)
        while let g = parent {
            if model.childrenSource(of: g) == .applications {
                // The launches are by the item's path within its group.
                return applications.launches[String(model.path(of: n).dropFirst(model.path(of: g).count + 1))]
            }
            parent = model.tree.parent(g)
        }
        return nil
    }

    func close() {
        installed?.close()
        installed = nil
        launcher.close()
    }
}
