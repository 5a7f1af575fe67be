import MenuCore

/// Groups whose children the daemon makes (`children-from`): the installed
/// applications (MenuService+Applications.swift) and the system services
/// (``SystemServices``). Each source is followed while a group shows it.
extension MenuService {
    /// Follows the sources that the model's groups show: at the start, after a
    /// reload, after a group's children arrived.
    func followProvidedChildren() {
        followApplications()
        system.follow(sources: isClosed ? [] : model.childrenSourcesShown)
        followOpenSystemGroups()
    }

    /// Tells the system services which of their groups are open (expanded, and in
    /// the rows): after every change, so cheap while no group shows a service.
    func followOpenSystemGroups() {
        let sources = system.followedSources
        guard !sources.isEmpty else { return system.follow(open: []) }
        var open: Set<ChildrenSource> = []
        for g in model.groups(from: Set(sources)) where model.isExpanded(g) && model.rowIndex(of: g) != nil {
            if let source = model.childrenSource(of: g) { open.insert(source) }
        }
        system.follow(open: open)
    }

    /// The children the daemon has for each `children-from` source, as a model's
    /// groups are filled with them: the applications once scanned, and each system
    /// service's once it has answered.
    var provided: [ChildrenSource: [NodeSpec]] {
        var provided: [ChildrenSource: [NodeSpec]] = [:]
        if let applications = applicationMenu { provided[.applications] = applications.children }
        for source in system.followedSources { provided[source] = system.children(for: source) }
        return provided
    }

    /// A system service's children changed: they are spliced into every group that
    /// shows them, rows matched by path, so that subscribers see only the rows that
    /// came, went or changed.
    func systemChildrenChanged(_ sources: [ChildrenSource]) {
        guard !isClosed else { return }
        let groups = model.groups(from: Set(sources))
        if !groups.isEmpty { spliceLoadedChildren(groups) }
    }
}
