import MenuCore
import MenuLoop

/// Groups whose children come from a command (`children-cmd`). The daemon keeps the
/// loaded config and fills each such group with its command's last output (or a
/// "Loading…" row before the first run) when it builds a model, and splices an
/// output into the model when it arrives, carrying the user's state over.
extension MenuService {
    /// The command groups that `changes` opened and that have no children yet: the
    /// reply to the command that made them waits for their commands. Most commands
    /// open nothing, and most menus have no such group, so this looks no further
    /// than the nodes whose expansion changed.
    func unloadedGroups(openedBy changes: [Change]) -> [String] {
        let applicationsWait = applications.installed != nil && applicationMenu == nil
        guard !menu.commandGroups.isEmpty || applicationsWait else { return [] }
        var opened: [String] = []
        for change in changes {
            for n in change.expansionChanged where model.isExpanded(n) {
                if model.childrenCommand(of: n) != nil {
                    let path = model.path(of: n)
                    if menu.loadedChildren[path] == nil && !opened.contains(path) { opened.append(path) }
                } else if applicationsWait, model.childrenSource(of: n) == .applications {
                    let path = model.path(of: n)
                    if !opened.contains(path) { opened.append(path) }
                }
            }
        }
        return opened
    }

    /// Commits `output`, whose command opened `groups` (``unloadedGroups(openedBy:)``),
    /// and runs their commands. Completes once they have, with the change from
    /// before the command to then, as one: what the reply to the command tells.
    /// Subscribers meanwhile see each group open on its "Loading…" row, then that row
    /// replaced, each as a change of its own.
    func commitLoadingChildren(_ output: borrowing CommandOutput, _ groups: [String]) -> Completion<Change> {
        let recorder = children.heldReplies.start()
        commit(output)
        return loadChildren(groups).map { _ in self.children.heldReplies.stop(recorder) }
    }

    /// Runs the commands of those of `paths` that have no children yet, sharing runs
    /// already under way; each run splices its output into the model as it arrives.
    /// Completes when they all have. Never fails: a failed command becomes its
    /// group's error row. An output that comes once its group has closed is dropped,
    /// unless the load was asked for a group that is not open (`whileClosed`: a tray
    /// host shows it, or `refresh`).
    func loadChildren(_ paths: [String], whileClosed: Bool = false) -> Completion<Void> {
        let runs = paths.compactMap { path -> Completion<Void>? in
            // An applications group: its children come with the first scan.
            if waitsForApplications(path) { return applications.installed?.loaded }
            if let running = children.loads[path] { return running }
            guard menu.loadedChildren[path] == nil, let command = menu.commandGroups[path] else { return nil }
            let run = children.run(command, path: path).map { outcome in
                self.children.loads[path] = nil
                // Closed while its command ran: the output would be stale by the
                // time it showed, and the next opening runs the command again.
                // A reload that changed the command wants the new one run instead.
                guard self.menu.commandGroups[path] == command,
                    whileClosed || self.model.isExpanded(path: path)
                else {
                    self.loadOpenGroups()
                    return
                }
                switch outcome {
                case .unchanged:
                    // Asked of refreshes only: a load has nothing to compare with.
                    return
                case .loaded(let children, let output):
                    if let g = self.model.tree.node(at: path),
                        self.model.tree.depth(g) >= MenuTree.maxDepth,
                        !children.isEmpty
                    {
                        self.children.logger.warning(
                            "children-cmd \(path): its \(children.count) children would be nested deeper than \(MenuTree.maxDepth) levels; showing an error row"
                        )
                    } else {
                        self.children.logger.info("children-cmd \(path): \(children.count) children")
                    }
                    self.menu.loadedChildren[path] = LoadedChildren(
                        command: command, loaded: children, from: output)
                case .failed(let reason, let details):
                    self.children.logger.warning(
                        "children-cmd \(path): '\(command)' failed: \(reason)\(details.map { "\n" + $0 } ?? "")"
                    )
                    self.menu.loadedChildren[path] = LoadedChildren(command: command, failed: reason)
                }
                self.spliceLoadedChildren([path])
            }
            // A run that ended at once (it could not start) has nothing to share.
            if !run.isDone { children.loads[path] = run }
            return run
        }
        return Completion<Void>.allComplete(runs)
    }

    /// Puts the loaded children of `paths` into the model, and the "Loading…" row back
    /// into groups whose children were forgotten, as building the model from the
    /// config filled with them would, but splicing each group in place. Subscribers see the
    /// row changes as one (none when the groups were closed, as when opening).
    func spliceLoadedChildren(_ paths: [String]) {
        let filling = Self.filling(menu.loadedChildren)
        let applications = applicationMenu?.children
        let applicationGroups = menu.applicationGroups
        let stale = staleGroups
        // In tree order, each group once: a group inside one spliced before it got its
        // children from `filling` with that one. The merged change is then what one
        // rebuild reports.
        var groups = Set(
            paths.filter {
                (menu.commandGroups[$0] != nil && menu.loadedChildren[$0] != nil)
                    || applicationGroups.contains($0)
            })
        groups.formUnion(stale)
        var change = Change()
        var done: [String] = []
        for path in groups.sorted(by: { model.tree.node(at: $0) ?? 0 < model.tree.node(at: $1) ?? 0 }) {
            // Paths from `commandGroups` are the model's own spelling, so a group
            // inside another is one whose path continues the other's.
            guard !done.contains(where: { path.hasPrefix($0 + "/") }),
                let (spliced, dropped) = try? model.replaceChildren(
                    of: path,
                    with: applicationGroups.contains(path) ? applications ?? [.loadingRow] : filling(path),
                    filling: filling, applications: applications)
            else { continue }
            persistence.hold(dropped)
            change = change.followed(by: spliced)
            done.append(path)
        }
        finishSplice(change, spliced: !done.isEmpty)
    }

    /// What a `children-cmd` group gets as its children in a splice: what its command
    /// last printed, or the "Loading…" row.
    static func filling(_ loaded: [String: LoadedChildren]) -> @Sendable (String) -> [NodeSpec] {
        { loaded[$0]?.children ?? [.loadingRow] }
    }

    /// The `children-cmd` groups whose children were forgotten but that still show
    /// them: a splice puts the "Loading…" row back.
    private var staleGroups: [String] {
        menu.commandGroups.keys.filter { menu.loadedChildren[$0] == nil && !model.showsOnlyLoadingRow($0) }
    }

    /// A refresh's children for the group at `path`, spliced into a copy of the model
    /// on a pool thread (``PreparedSplice``) and adopted when nothing changed the model
    /// meanwhile; spliced here otherwise, and when another group waits for its
    /// "Loading…" row, which only this splice would give it.
    func spliceRefreshed(_ path: String, replacing replaced: consuming LoadedChildren?) {
        guard staleGroups.isEmpty, menu.commandGroups[path] != nil,
            let children = menu.loadedChildren[path]?.children
        else { return spliceLoadedChildren([path]) }
        let prepared = PreparedSplice(
            of: model, path: path, children: children, loaded: menu.loadedChildren,
            applications: applicationMenu?.children, replaced: replaced)
        do throws(UVError) {
            try BackgroundWork.run(on: loop, { prepared.run() }, then: { [self] in adopt(prepared, path) })
        } catch {
            spliceLoadedChildren([path])
        }
    }

    private func adopt(_ prepared: PreparedSplice, _ path: String) {
        defer {
            do throws(UVError) {
                try BackgroundWork.run(on: loop, { prepared.free() }, then: { _ in })
            } catch {
                prepared.free()
            }
        }
        guard !isClosed else { return }
        guard model.revision == prepared.revision, let (change, dropped) = prepared.result else {
            // The model changed while the copy was spliced: splice what the group has
            // now, here.
            return spliceLoadedChildren([path])
        }
        prepared.adopt(into: model)
        persistence.hold(dropped)
        finishSplice(change, spliced: true)
    }

    /// What follows the splices: the values kept for nodes that came back, the
    /// tables of groups, the commit, and the groups that now load, refresh or follow.
    private func finishSplice(_ spliced: Change, spliced any: Bool) {
        var change = spliced
        // What the user set below a group that closed and was emptied comes back with
        // its nodes.
        if any { change = change.followed(by: persistence.applyKept()) }
        menu.commandGroups = model.childrenCommands
        menu.applicationGroups = model.applicationGroups
        menu.refreshGroups = model.refreshingGroups
        var output = CommandOutput(listening: events.hasSubscribers)
        output.record(change, in: model, spliceTopics: .expansion)
        commit(output, runOnChange: false)
        loadOpenGroups()
        followApplications()
        followLiveValues()
        followRefreshes()
    }

    /// Starts the commands of groups that are open but still show "Loading…": after
    /// a restart restored them open, or a reload changed their command.
    func loadOpenGroups() {
        // Most menus have no children-cmd group, and this runs after every change.
        guard !menu.commandGroups.isEmpty else { return }
        let waiting = menu.commandGroups.keys.filter {
            menu.loadedChildren[$0] == nil && children.loads[$0] == nil && model.isExpanded(path: $0)
        }
        if !waiting.isEmpty { _ = loadChildren(waiting.sorted()) }
    }

    /// A closed group's children are stale: the next opening runs its command again,
    /// and what a refresh under way prints is not shown.
    func forgetChildrenOfCollapsedGroups(_ changes: some Sequence<Change>) {
        guard !menu.commandGroups.isEmpty else { return }
        for change in changes {
            for n in change.expansionChanged where !model.isExpanded(n) && model.childrenCommand(of: n) != nil
            {
                let path = model.path(of: n)
                menu.loadedChildren[path] = nil
                children.refresh.forget(path)
            }
        }
    }
}
