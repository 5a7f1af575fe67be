import MenuCore

/// The changes committed while a reply waits for the children of the groups its
/// command opened (``HeldReplies/start()``), so that the reply can tell, as
/// one change, how the rows went from before the command to when it is answered.
final class ChangeRecorder {
    /// Everything gathered so far, as one change.
    var change = Change()

    func add(_ changes: [Change]) {
        change = change.followed(by: Change(composing: changes))
    }
}
