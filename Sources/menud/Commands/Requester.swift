import MenuCore
import MenuProtocol

/// Where the ``Dispatcher`` sends a command's answer: a client's connection, or an
/// in-process caller. Each step is the dispatcher's to order; a requester only says
/// what it does with it.
protocol Requester: AnyObject {
    /// Before the handler runs: somewhere for its reply lines to go. A connection
    /// lends its buffer of unsent replies, so that they are written once.
    func lendReplies(to output: inout CommandOutput)
    /// After the handler: the lent lines back; `failed` when it threw, and what it
    /// wrote is to be cut off.
    func takeBackReplies(from output: inout CommandOutput, failed: Bool)
    /// The command succeeded: its reply, written before what it changed is
    /// committed, and what the command asked of the requester besides (a
    /// subscription, a close).
    func answer(_ output: inout CommandOutput)
    /// The reply waits for the children of the groups the command opened; the
    /// command's own records are kept for it meanwhile.
    func hold(_ output: borrowing CommandOutput)
    /// The held reply: the change from the rows before the command to the rows now.
    /// `afterWaiting`: false when the children had come already, in line.
    func answerHeld(_ change: Change, afterWaiting: Bool)
    /// The command was refused.
    func fail(_ error: ProtocolError)
    /// The command answers later: the requests behind it wait.
    func suspend()
    /// It has answered. `afterWaiting`: false when it was done already, in line.
    func resume(afterWaiting: Bool)
}
