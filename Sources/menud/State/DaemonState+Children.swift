import MenuCore

/// Groups whose children come from a command (`children-cmd`). The daemon keeps the
/// loaded config and fills each such group with its command's last output (or a
/// "Loading…" row before the first run) when it builds a model, and splices an
/// output into the model when it arrives, carrying the user's state over.
extension DaemonState {
    /// The current config with every command group filled in.
    func filledConfig() -> MenuConfig {
        config.fillingChildren { loadedChildren[$0]?.children ?? [.loadingRow] }
    }

    /// The command groups without loaded children that `body`, the model part of
    /// `invocations`, would open: it runs inside a batch that is always rolled back, so
    /// the model is left as it was. Only model operations may run in `body`. It runs
    /// only when such a group is within the commands' reach (``Command/opens``): it
    /// costs as much as the commands themselves, before every one of them.
    func groupsToLoad(
        openedBy invocations: some Collection<Invocation>, by body: (MenuModel) throws -> Void
    ) -> [String] {
        guard !commandGroups.isEmpty else { return [] }
        let candidates = commandGroups.keys.filter { path in
            // The reach first: most commands reach no group, and say so without a lookup.
            invocations.contains { reaches($0, path) } && loadedChildren[path] == nil
                && !model.isExpanded(path: path)
        }
        guard !candidates.isEmpty else { return [] }
        var opened: [String] = []
        _ = try? model.batch { model in
            try body(model)
            opened = candidates.filter { self.model.isExpanded(path: $0) }.sorted()
            throw DryRunRolledBack()
        }
        return opened
    }

    /// Whether `invocation`'s trial may open the group at `path`, by its command's
    /// declared reach. Paths are compared as nodes, so any spelling the model accepts
    /// counts.
    private func reaches(_ invocation: Invocation, _ path: String) -> Bool {
        guard invocation.command.trial != nil else { return false }
        switch invocation.command.opens {
        case .nothing: return false
        case .anywhere: return true
        case .belowPath:
            guard let root = invocation.path else { return true }
            return model.isNode(at: path, within: root)
        }
    }

    /// Runs the commands of `paths` (sharing runs already under way), then splices
    /// their output into the model. Never fails: a failed command becomes its group's
    /// error row.
    func loadChildren(_ paths: [String]) -> Completion<Void> {
        let runs = paths.compactMap { path -> Completion<Void>? in
            if let running = childrenLoads[path] { return running }
            guard let command = commandGroups[path] else { return nil }
            let run = ChildrenCommandRun.start(command, path: path, timeout: childrenTimeout, state: self)
                .map { outcome in
                    self.childrenLoads[path] = nil
                    switch outcome {
                    case .loaded(let children):
                        self.logger.info("children-cmd \(path): \(children.count) children")
                        self.loadedChildren[path] = (command, children)
                    case .failed(let reason, let details):
                        self.logger.warning(
                            "children-cmd \(path): '\(command)' failed: \(reason)\(details.map { "\n" + $0 } ?? "")"
                        )
                        self.loadedChildren[path] = (command, [.errorRow(reason)])
                    }
                }
            // A run that ended at once (it could not start) has nothing to share.
            if !run.isDone { childrenLoads[path] = run }
            return run
        }
        return Completion<Void>.allComplete(runs).map {
            self.spliceLoadedChildren(paths)
        }
    }

    /// Puts the loaded children of `paths` into the model, and the "Loading…" row back
    /// into groups whose children were forgotten, as building the model from
    /// ``filledConfig()`` would, but splicing each group in place. Subscribers see the
    /// row changes as one (none when the groups were closed, as when opening).
    func spliceLoadedChildren(_ paths: [String]) {
        let filling = { (path: String) in self.loadedChildren[path]?.children ?? [.loadingRow] }
        let stale = commandGroups.keys.filter { loadedChildren[$0] == nil && !model.showsOnlyLoadingRow($0) }
        // In tree order, each group once: a group inside one spliced before it got its
        // children from `filling` with that one. The merged change is then what one
        // rebuild reports: splices ascending, each after the ones before, and paths
        // in tree order.
        var groups = Set(paths.filter { commandGroups[$0] != nil && loadedChildren[$0] != nil })
        groups.formUnion(stale)
        var change = Change()
        var done: [String] = []
        for path in groups.sorted(by: { model.tree.node(at: $0) ?? 0 < model.tree.node(at: $1) ?? 0 }) {
            guard !done.contains(where: { model.isNode(at: path, within: $0) }),
                let (spliced, dropped) = try? model.replaceChildren(
                    of: path, with: filling(path), filling: filling)
            else { continue }
            for d in dropped { logger.notice("dropped \(d.entry): \(d.reason)") }
            change.splices += spliced.splices
            change.expansionChanged += spliced.expansionChanged
            change.valueChanged += spliced.valueChanged
            done.append(path)
        }
        commandGroups = model.childrenCommands
        var output = CommandOutput(listening: events.hasSubscribers)
        output.record(change, in: model, spliceTopics: .expansion)
        commit(output, runOnChange: false)
        loadOpenGroups()
    }

    /// Starts the commands of groups that are open but still show "Loading…": after
    /// a restart restored them open, or a reload changed their command.
    func loadOpenGroups() {
        // Most menus have no children-cmd group, and this runs after every change.
        guard !commandGroups.isEmpty else { return }
        let waiting = commandGroups.keys.filter { loadedChildren[$0] == nil && model.isExpanded(path: $0) }
        if !waiting.isEmpty { _ = loadChildren(waiting.sorted()) }
    }

    /// A closed group's children are stale: the next opening runs its command again.
    func forgetChildrenOfCollapsedGroups(_ changes: some Sequence<Change>) {
        guard !commandGroups.isEmpty else { return }
        for change in changes {
            for path in change.expansionChanged
            where commandGroups[path] != nil && !model.isExpanded(path: path) {
                loadedChildren[path] = nil
            }
        }
    }

    /// After a reload: keep loaded children only where the group still has the same
    /// command.
    func keepChildrenOfUnchangedCommands() {
        let commands = filledConfig().childrenCommands
        loadedChildren = loadedChildren.filter { commands[$0.key] == $0.value.command }
    }
}

/// Thrown to end ``DaemonState/groupsToLoad(openedBy:by:)``'s trial batch, which the
/// model then rolls back.
private struct DryRunRolledBack: Error {}
