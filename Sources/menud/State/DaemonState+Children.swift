import MenuCore

/// Groups whose children come from a command (`children-cmd`). The model's tree is
/// fixed once built, so the daemon keeps the loaded config, fills each such group
/// with its command's last output (or a "Loading…" row before the first run), and
/// builds a new model whenever an output arrives, carrying the user's state over.
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

    /// Runs the commands of `paths` (sharing runs already under way), then rebuilds
    /// the model with their output. Never fails: a failed command becomes its group's
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
                    case .failed(let reason):
                        self.logger.warning("children-cmd \(path): '\(command)' failed: \(reason)")
                        self.loadedChildren[path] = (command, [.errorRow(reason)])
                    }
                }
            // A run that ended at once (it could not start) has nothing to share.
            if !run.isDone { childrenLoads[path] = run }
            return run
        }
        return Completion<Void>.allComplete(runs).map {
            self.rebuildWithLoadedChildren()
        }
    }

    /// Builds the model again from the config and the loaded children. Subscribers
    /// see the row changes (none when the groups were closed, as when opening).
    func rebuildWithLoadedChildren() {
        let filled = filledConfig()
        commandGroups = filled.childrenCommands
        let output = replaceModel(
            with: MenuModel(config: filled), configRecords: [], spliceTopics: .expansion)
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
