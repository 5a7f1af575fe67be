import MenuProtocol

/// A request that answers OK and nothing else: its text form is empty, and it has no
/// JSON form, since an empty document would read as an answer.
protocol SilentCommand: RequestCommand {}

extension SilentCommand {
    static var withoutJSON: String? { "it prints nothing; its exit status is the answer" }
    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] { [] }
    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String { "" }
}
