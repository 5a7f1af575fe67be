import MenuCore

/// The replies waiting for the children of the groups their commands opened, each
/// gathering every change committed meanwhile (``ChangeRecorder``).
final class HeldReplies {
    private var recorders: [ChangeRecorder] = []

    /// Starts gathering the changes committed from now on, until ``stop(_:)``.
    func start() -> ChangeRecorder {
        let recorder = ChangeRecorder()
        recorders.append(recorder)
        return recorder
    }

    /// Stops `recorder` and returns what it gathered as one change: from the rows
    /// before the first to the rows now.
    func stop(_ recorder: ChangeRecorder) -> Change {
        recorders.removeAll { $0 === recorder }
        return recorder.change
    }

    /// Changes just committed. Inlined, with nothing held the common case, so that
    /// a commit pays no call for it.
    @inline(__always)
    func add(_ changes: [Change]) {
        guard !recorders.isEmpty else { return }
        for recorder in recorders { recorder.add(changes) }
    }

    /// Carries what the recorders gathered from `old`'s node numbers into `new`'s,
    /// which has just replaced it.
    func renumber(from old: MenuModel, to new: MenuModel) {
        for recorder in recorders {
            recorder.change = recorder.change.renumbered { new.node(samePathAs: $0, in: old) }
        }
    }
}
