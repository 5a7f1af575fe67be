import MenuApplications
import MenuCore
import MenuProtocol

/// Groups whose children are the installed applications (`children-from:
/// applications`). One scan serves them all (``InstalledApplications``): it runs
/// while the menu has such a group, from the daemon's start or the reload that
/// brings the first, and its watch splices each change into every such group.
/// Their items start applications through ``ApplicationLauncher``, never a shell.
extension MenuService {
    /// Starts following the installed applications when the menu has a group that
    /// shows them, and stops when it has none. Runs after every change of the menu's
    /// shape: the start, a reload, a group's children arriving.
    func followApplications() {
        guard model.hasApplicationGroups, !isClosed else {
            if let installed = applications.installed {
                installed.close()
                applications.installed = nil
                applications.logger.info("applications: no group shows them any more; not watched")
            }
            return
        }
        guard applications.installed == nil else { return }
        let installed = InstalledApplications(
            environment: ApplicationEnvironment(environment: ProcessEnvironment.all()), loop: loop,
            logger: applications.logger)
        installed.onChange = { [weak self] in self?.applicationsChanged() }
        applications.installed = installed
        installed.scan()
    }

    /// What the applications groups show, with how each starts: nil until the first
    /// scan has ended, and while no group shows them.
    var applicationMenu: ApplicationMenu? { applications.installed?.menu }

    /// A scan found other applications than the menu shows: they are spliced into
    /// every group that shows them, rows matched by path, so that subscribers see only
    /// the rows that came, went or changed.
    private func applicationsChanged() {
        spliceLoadedChildren(model.applicationGroups)
    }

    /// Whether group `g`, if an applications group, still waits for its first scan,
    /// so that the reply to the command that opened it waits too.
    func waitsForApplications(_ g: Int) -> Bool {
        applications.installed != nil && applicationMenu == nil
            && model.childrenSource(of: g) == .applications
    }
}
