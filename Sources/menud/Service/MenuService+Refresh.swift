import MenuCore
import MenuProtocol

/// `children-cmd` groups with `refresh`: while such a group is open and its row shown,
/// its command runs again every interval in the background (``ChildrenRefresh``),
/// and what it prints is spliced in as a first load's output is. A refresh never
/// shows "Loading…": the children stay until the new ones come, and an output the
/// group shows already changes nothing. A failed refresh keeps the last children
/// that loaded and adds an error row; the next that loads removes it. Like any
/// children load, it is not a user's change and runs no `on-change`.
extension MenuService {
    /// Follows which refreshing groups are open, shown (every group above them open
    /// too) and loaded: each has a timer, due one interval after its command last
    /// ended, so that a group shown again after a while refreshes at once. Runs after
    /// every change, a reload and a group's children arriving.
    func followRefreshes() {
        guard model.loadingGroups.refreshing || !children.refresh.isIdle else { return }
        let now = ContinuousClock.now
        var wanted: [Int: (every: Duration, first: Duration)] = [:]
        for (g, every) in model.refreshingGroups {
            guard let loaded = menu.loadedChildren[g], model.isExpanded(g), model.rowIndex(of: g) != nil
            else { continue }
            wanted[g] = (every, max(loaded.ended + every - now, .zero))
        }
        children.refresh.follow(wanted)
    }

    /// Runs the command of group `g` again, unless it is loading or refreshing
    /// already. Completes once what it printed is in (or was dropped).
    @discardableResult
    func refreshChildren(_ g: Int) -> Completion<Void> {
        guard !isClosed, children.loads[g] == nil, !children.refresh.isRunning(g),
            let command = menu.loadedChildren[g]?.command, model.childrenCommand(of: g) == command
        else { return .succeeded(()) }
        let run = children.refresh.start(g)
        let shown = menu.loadedChildren[g].flatMap { $0.failed ? nil : $0.good?.output }
        let group = menu.refs.ref(g)
        let path = model.path(of: g)
        return children.run(command, path: path, unchangedFrom: shown).map { outcome in
            // Gone, closed while it ran, or given another command by a reload: the
            // next opening, or the new command, loads anew.
            guard let g = group.node, self.children.refresh.end(g, run), !self.isClosed,
                var loaded = self.menu.loadedChildren[g], loaded.command == command
            else { return }
            switch outcome {
            case .unchanged:
                self.menu.loadedChildren[g]?.ended = .now
                return
            case .loaded(let children, let output):
                guard !loaded.shows(output) else {
                    self.menu.loadedChildren[g]?.ended = .now
                    return
                }
                if self.children.refreshLogs.recovered(g) {
                    self.children.logger.notice("children-cmd \(path): refresh: '\(command)' works again")
                }
                loaded = LoadedChildren(command: command, loaded: children, from: output)
            case .failed(let reason, let details):
                self.logRefreshFailure(
                    g, path, "'\(command)' failed: \(reason)\(details.map { "\n" + $0 } ?? "")")
                loaded.refreshFailed(reason)
            }
            let replaced = self.menu.loadedChildren.updateValue(loaded, forKey: g)
            self.spliceRefreshed(g, replacing: replaced)
        }
    }

    /// The first failure of a group's refresh, then at most one line a minute with
    /// how many were held back, until it works again: a command that fails every
    /// second must not flood the log.
    private func logRefreshFailure(_ g: Int, _ path: String, _ message: String) {
        guard let more = children.refreshLogs.admit(g) else { return }
        children.logger.warning("children-cmd \(path): refresh: \(message)\(more)")
    }
}

extension MenuService {
    /// `refresh PATH`, of group `g`: the group's command runs again now, open or not (a tray host
    /// about to show it asks this too); an applications group reads its directories
    /// again. A group that has loaded keeps its children
    /// until the new ones come; one that has not loads as when it opens, without
    /// opening. Answered once the children are in; subscribers see them as for any
    /// children load.
    func refreshGroup(_ g: Int) -> Completion<CommandOutput> {
        // An applications group reads the directories again.
        if model.childrenSource(of: g) == .applications, let installed = applications.installed {
            return installed.rescan().map { CommandOutput(listening: false) }
        }
        guard model.childrenCommand(of: g) != nil else {
            return .failed(ProtocolError(.notExpandable, "'\(model.path(of: g))' has no children-cmd to run"))
        }
        let run = menu.loadedChildren[g] != nil ? refreshChildren(g) : loadChildren([g], whileClosed: true)
        return run.map { CommandOutput(listening: false) }
    }
}
