import MenuCore

/// Values read from the system (``LiveValues``), applied to the model. A reading is
/// not a user's change: it runs no `on-change`, so that a listener and a hook never
/// feed each other.
extension MenuService {
    /// Follows the sources of the model now served: at start, after a reload, after
    /// a group's children arrived. Each node that reads from the system shows its
    /// source's last line, or is stale until the source answers; new sources with a
    /// `value-cmd` run it.
    func followLiveValues() {
        let nodes = model.valueSources
        guard !nodes.isEmpty || !liveValues.isEmpty else { return }
        var wanted: [Int: ValueSource] = [:]
        var change = Change()
        var unread: [Int] = []
        var commands: [(node: Int, group: Int)] = []
        for (n, source) in nodes {
            wanted[n] = source
            if source.command != nil, let g = model.tree.parent(n) { commands.append((n, g)) }
        }
        let started = liveValues.follow(wanted) { self.model.path(of: $0) }
        for (n, _) in nodes {
            if let line = liveValues.lastLines[n] {
                change = change.followed(by: reading(line, into: n))
            } else if !model.isStale(n) {
                unread.append(n)
            }
        }
        liveValues.commandIndex = ValueCommandIndex(commands)
        change = change.followed(by: model.markStale(unread))
        commitReading(change)
        for n in started { liveValues.read(n) }
    }

    /// Applies a line from the source of node `n`, if it still has a source.
    func applyReading(_ line: Result<String, SourceFailure>, to n: Int) {
        guard !isClosed, model.valueSource(of: n) != nil else { return }
        commitReading(reading(line, into: n))
    }

    /// Runs the `value-cmd`s of the nodes in groups that `changes` opened. A click
    /// on a group of nodes without one costs a lookup per group it flipped.
    func readValuesOfOpenedGroups(_ changes: [Change]) {
        for change in changes {
            for g in change.expansionChanged {
                guard let nodes = liveValues.commandIndex.nodes(in: g), model.isExpanded(g) else { continue }
                for n in nodes { liveValues.read(n) }
            }
        }
    }

    private func reading(_ line: Result<String, SourceFailure>, into n: Int) -> Change {
        switch line {
        case .failure(let problem):
            if !problem.logged {
                logReading(n, "\(problem.message); keeping \(describedValue(n)), marked stale")
            }
            return model.markStale([n], reason: problem.reason)
        case .success(let text):
            guard let (change, outcome) = try? model.read(text, into: n) else { return Change() }
            switch outcome {
            case .applied: break
            case .clamped(let from):
                logReading(n, "\(Value.format(from)) is outside the bounds; showing \(describedValue(n))")
            case .refused(let problem):
                let refusal = SourceFailure("refused the line: \(problem.message)")
                logReading(n, "\(refusal.message); keeping \(describedValue(n)), marked stale")
                return change.followed(by: model.markStale([n], reason: refusal.reason))
            }
            return change
        }
    }

    private func describedValue(_ n: Int) -> String { model.value(of: n).map { "'\($0)'" } ?? "no value" }

    /// At most one line a minute per node, with how many were held back.
    private func logReading(_ n: Int, _ message: String) {
        guard let more = liveValues.readingLogs.admit(n) else { return }
        liveValues.logger.warning("value \(model.path(of: n)): \(message)\(more)")
    }

    /// Publishes a reading. It does not write the state file: a node that reads its
    /// value from the system is not restored from it (``Persistence/restore(_:)``),
    /// and a value polled every few seconds would rewrite the file, and wake the disk,
    /// as often, for nothing. The file takes the value with the user's next change.
    private func commitReading(_ change: Change) {
        guard !change.isEmpty else { return }
        var output = CommandOutput(listening: events.hasSubscribers)
        output.record(change, in: model)
        commit(output, runOnChange: false, save: false)
    }
}
