import MenuCore
import MenuLoop

/// Groups whose children come from a command (`children-cmd`). The daemon keeps the
/// loaded config and fills each such group with its command's last output (or a
/// "Loading…" row before the first run) when it builds a model, and splices an
/// output into the model when it arrives, carrying the user's state over. Groups are
/// known by node; a run holds a ``NodeRef`` to its group, and the path is spelled
/// for the command's log lines and for the specs a splice fills, which name groups so.
extension MenuService {
    /// The command groups that `changes` opened and that have no children yet: the
    /// reply to the command that made them waits for their commands. Most commands
    /// open nothing, and most menus have no such group, so this looks no further
    /// than the nodes whose expansion changed.
    func unloadedGroups(openedBy changes: [Change]) -> [Int] {
        let applicationsWait = applications.installed != nil && applicationMenu == nil
        guard model.hasChildrenCommands || applicationsWait else { return [] }
        var opened: [Int] = []
        for change in changes {
            for n in change.expansionChanged where model.isExpanded(n) {
                if model.childrenCommand(of: n) != nil {
                    if menu.loadedChildren[n] == nil && !opened.contains(n) { opened.append(n) }
                } else if applicationsWait, model.childrenSource(of: n) == .applications {
                    if !opened.contains(n) { opened.append(n) }
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
    func commitLoadingChildren(_ output: borrowing CommandOutput, _ groups: [Int]) -> Completion<Change> {
        let recorder = children.heldReplies.start()
        commit(output)
        return loadChildren(groups).map { _ in self.children.heldReplies.stop(recorder) }
    }

    /// Runs the commands of those of `groups` that have no children yet, sharing runs
    /// already under way; each run splices its output into the model as it arrives.
    /// Completes when they all have. Never fails: a failed command becomes its
    /// group's error row. An output that comes once its group has closed is dropped,
    /// unless the load was asked for a group that is not open (`whileClosed`: a tray
    /// host shows it, or `refresh`).
    func loadChildren(_ groups: [Int], whileClosed: Bool = false) -> Completion<Void> {
        let runs = groups.compactMap { g -> Completion<Void>? in
            // An applications group: its children come with the first scan.
            if waitsForApplications(g) { return applications.installed?.loaded }
            if let running = children.loads[g] { return running }
            guard menu.loadedChildren[g] == nil, let command = model.childrenCommand(of: g) else {
                return nil
            }
            let group = menu.refs.ref(g)
            let path = model.path(of: g)
            let run = children.run(command, path: path).map { outcome in
                if let g = group.node { self.children.loads[g] = nil }
                // Gone, or closed while its command ran: the output would be stale by
                // the time it showed, and the next opening runs the command again.
                // A reload that changed the command wants the new one run instead.
                guard let g = group.node, self.model.childrenCommand(of: g) == command,
                    whileClosed || self.model.isExpanded(g)
                else {
                    self.loadOpenGroups()
                    return
                }
                switch outcome {
                case .unchanged:
                    // Asked of refreshes only: a load has nothing to compare with.
                    return
                case .loaded(let children, let output):
                    if self.model.tree.depth(g) >= MenuTree.maxDepth, !children.isEmpty {
                        self.children.logger.warning(
                            "children-cmd \(path): its \(children.count) children would be nested deeper than \(MenuTree.maxDepth) levels; showing an error row"
                        )
                    } else {
                        self.children.logger.info("children-cmd \(path): \(children.count) children")
                    }
                    self.menu.loadedChildren[g] = LoadedChildren(
                        command: command, loaded: children, from: output)
                case .failed(let reason, let details):
                    self.children.logger.warning(
                        "children-cmd \(path): '\(command)' failed: \(reason)\(details.map { "\n" + $0 } ?? "")"
                    )
                    self.menu.loadedChildren[g] = LoadedChildren(command: command, failed: reason)
                }
                self.spliceLoadedChildren([g])
            }
            // A run that ended at once (it could not start) has nothing to share.
            if !run.isDone { children.loads[g] = run }
            return run
        }
        return Completion<Void>.allComplete(runs)
    }

    /// Puts the loaded children of `groups` into the model, and the "Loading…" row
    /// back into groups whose children were forgotten, as building the model from the
    /// config filled with them would, but splicing each group in place. Subscribers
    /// see the row changes as one (none when the groups were closed, as when opening).
    func spliceLoadedChildren(_ groups: [Int]) {
        var wanted = Set(
            groups.filter {
                (model.childrenCommand(of: $0) != nil && menu.loadedChildren[$0] != nil)
                    || model.childrenSource(of: $0) != nil
            })
        wanted.formUnion(staleGroups)
        // Each group once: one inside another gets its children from `filling` with
        // the other's. Spliced last first, so that a splice leaves the numbers of
        // the groups still to splice as they were; the merged change is what one
        // rebuild reports.
        var outer: [Int] = []
        for g in wanted.sorted() {
            if let last = outer.last, model.descendants(of: last).contains(g) { continue }
            outer.append(g)
        }
        guard !outer.isEmpty else { return finishSplice(Change(), spliced: false) }
        let filling = Self.filling(menu.loadedChildrenByPath)
        let provided = self.provided
        let carried = outer.flatMap { followedPaths(in: model.descendants(of: $0)) }
        var change = Change()
        for g in outer.reversed() {
            let children =
                model.childrenSource(of: g).map { provided[$0] ?? [.loadingRow] }
                ?? menu.loadedChildren[g]?.children ?? [.loadingRow]
            let (spliced, dropped) = model.replaceChildren(
                of: g, with: children, filling: filling, provided: provided)
            persistence.hold(dropped)
            change = change.followed(by: spliced)
        }
        renumber(after: change, carrying: carried)
        finishSplice(change, spliced: true)
    }

    /// What a `children-cmd` group gets as its children in a splice: what its command
    /// last printed, or the "Loading…" row. By path: the specs it fills name their
    /// groups so.
    static func filling(_ loaded: [String: LoadedChildren]) -> @Sendable (String) -> [NodeSpec] {
        { loaded[$0]?.children ?? [.loadingRow] }
    }

    /// The `children-cmd` groups whose children were forgotten but that still show
    /// them: a splice puts the "Loading…" row back.
    private var staleGroups: [Int] {
        guard model.hasChildrenCommands else { return [] }
        return model.childrenCommandGroups.filter {
            menu.loadedChildren[$0] == nil && !model.showsOnlyLoadingRow($0)
        }
    }

    /// A refresh's children for group `g`, spliced into a copy of the model on a pool
    /// thread (``PreparedSplice``) and adopted when nothing changed the model
    /// meanwhile; spliced here otherwise, and when another group waits for its
    /// "Loading…" row, which only this splice would give it.
    func spliceRefreshed(_ g: Int, replacing replaced: consuming LoadedChildren?) {
        guard staleGroups.isEmpty, model.childrenCommand(of: g) != nil,
            let children = menu.loadedChildren[g]?.children
        else { return spliceLoadedChildren([g]) }
        let prepared = PreparedSplice(
            of: model, group: g, children: children, loaded: menu.loadedChildrenByPath,
            provided: provided, replaced: replaced)
        let group = menu.refs.ref(g)
        do throws(UVError) {
            try BackgroundWork.run(on: loop, { prepared.run() }, then: { [self] in adopt(prepared, group) })
        } catch {
            spliceLoadedChildren([g])
        }
    }

    private func adopt(_ prepared: PreparedSplice, _ group: NodeRef) {
        defer {
            do throws(UVError) {
                try BackgroundWork.run(on: loop, { prepared.free() }, then: { _ in })
            } catch {
                prepared.free()
            }
        }
        guard !isClosed else { return }
        guard let g = group.node, model.revision == prepared.revision, let (change, dropped) = prepared.result
        else {
            // The model changed while the copy was spliced: splice what the group has
            // now, here.
            return spliceLoadedChildren(group.node.map { [$0] } ?? [])
        }
        let carried = followedPaths(in: model.descendants(of: g))
        prepared.adopt(into: model)
        persistence.hold(dropped)
        renumber(after: change, carrying: carried)
        finishSplice(change, spliced: true)
    }

    /// What follows the splices: the values kept for nodes that came back, the
    /// commit, and the groups that now load, refresh or follow.
    private func finishSplice(_ spliced: Change, spliced any: Bool) {
        var change = spliced
        // What the user set below a group that closed and was emptied comes back with
        // its nodes.
        if any { change = change.followed(by: persistence.applyKept()) }
        var output = CommandOutput(listening: events.hasSubscribers)
        output.record(change, in: model, spliceTopics: .expansion)
        commit(output, runOnChange: false)
        loadOpenGroups()
        followProvidedChildren()
        followLiveValues()
        followRefreshes()
    }

    /// Starts the commands of groups that are open but still show "Loading…": after
    /// a restart restored them open, or a reload changed their command.
    func loadOpenGroups() {
        // Most menus have no children-cmd group, and this runs after every change.
        guard model.hasChildrenCommands else { return }
        let waiting = model.childrenCommandGroups.filter {
            menu.loadedChildren[$0] == nil && children.loads[$0] == nil && model.isExpanded($0)
        }
        if !waiting.isEmpty { _ = loadChildren(waiting) }
    }

    /// A closed group's children are stale: the next opening runs its command again,
    /// and what a refresh under way prints is not shown.
    func forgetChildrenOfCollapsedGroups(_ changes: some Sequence<Change>) {
        guard model.hasChildrenCommands else { return }
        for change in changes {
            for n in change.expansionChanged where !model.isExpanded(n) && model.childrenCommand(of: n) != nil
            {
                menu.loadedChildren[n] = nil
                children.refresh.forget(n)
            }
        }
    }
}
