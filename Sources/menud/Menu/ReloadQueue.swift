import MenuProtocol

/// The reloads asked for and the one under way. One runs at a time; those asked for
/// meanwhile wait for the next, which reads the file as it is then. A change seen by
/// the config watch while one runs is looked at when it ends.
struct ReloadQueue {
    /// Who asked for the next run: a trigger for the log, and a reply to complete
    /// (none for SIGHUP and the watch).
    var asked: [(trigger: String, reply: Completion<ReloadReply>?)] = []
    /// Those the run under way answers; nil when none runs.
    var running: [(trigger: String, reply: Completion<ReloadReply>?)]?
    /// How often the run under way found the model changed when it ended, and
    /// carried the state over again.
    var retries = 0
    /// The config watch saw the file change while a run was under way.
    var changedMeanwhile = false
    /// The file as the last run read it: a watch event that leaves it so is no change.
    var lastRead: FileSignature?
    /// Run on the worker thread once a run has read the config, before it builds the
    /// model: what a test holds a reload in flight with, for as long as it needs,
    /// however fast the machine. The daemon sets none.
    var gate: (@Sendable () -> Void)?

    /// After this many runs that found the model changed, the last is done on the
    /// loop: a client that changes the menu without pause must not hold a reload off
    /// for ever.
    static let retriesAtMost = 3
}

/// What a `reload` command answers: the records, and for the first command the run
/// answers, the events it sends once its reply is written.
struct ReloadReply {
    var records: RecordWriter
    var events: EventGroup?
}
