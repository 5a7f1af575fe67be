import Logging
import MenuCore
import MenuProtocol

/// Numbers event groups and hands each subscriber the lines of its topics. Lives on
/// the daemon's one event loop with the model, so groups are numbered and delivered
/// in exactly the order their changes were applied, to every subscriber alike.
final class EventHub {
    /// Not a strong reference: the server owns its connections, and a connection holds
    /// the daemon's state, which holds this hub; a strong one here would be a cycle
    /// that only the connection's close could break. Not `weak` either, whose load
    /// costs about 500 instructions per subscriber per group: a connection leaves the
    /// hub when it closes and, at the latest, in its `deinit`, so the reference is
    /// never left dangling.
    private struct Subscription {
        unowned(unsafe) var stream: ClientConnection
        var topics: EventTopics
    }

    /// The last group's number; groups are numbered from 1 whether or not anybody
    /// listens, so a number identifies a change for the daemon's whole run.
    private(set) var sequence: UInt64 = 0
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    private let logger: Logger

    /// In-process listeners (the tray), told of each group that has records of
    /// their topics, with the model changes it carried: typed, without the records'
    /// text.
    private struct Listener {
        var topics: EventTopics
        var hear: (EventNotice) -> Void
        /// Told when a client asks to show a top-level menu (`open`).
        var show: ((String) -> Void)?
    }
    private var listeners: [Int: Listener] = [:]
    private var nextListener = 0

    init(logger: Logger) { self.logger = logger }

    /// Starts telling `hear` of every group with records of `topics`; the number
    /// returned ends it (``stopListening(_:)``).
    /// `show`, if given, is told of each top-level menu a client asks to show
    /// (``show(menu:)``).
    func listen(
        topics: EventTopics, show: ((String) -> Void)? = nil, _ hear: @escaping (EventNotice) -> Void
    ) -> Int {
        nextListener += 1
        listeners[nextListener] = Listener(topics: topics, hear: hear, show: show)
        return nextListener
    }

    /// A client asked to show the top-level menu `menu` where it is shown whole (a
    /// deep link, `open`): the listeners that show menus are told. Nothing for
    /// subscribers, whose views follow the focus record instead.
    func show(menu: String) {
        for listener in listeners.values { listener.show?(menu) }
    }

    func stopListening(_ listener: Int) { listeners[listener] = nil }

    var subscriberCount: Int { subscriptions.count }

    /// Whether an event group's records must be kept for somebody.
    var hasSubscribers: Bool { !subscriptions.isEmpty }

    /// Starts (or changes the topics of) a connection's subscription.
    func subscribe(_ stream: ClientConnection, topics: EventTopics) {
        subscriptions[ObjectIdentifier(stream)] = Subscription(stream: stream, topics: topics)
    }

    func unsubscribe(_ stream: ClientConnection) {
        subscriptions[ObjectIdentifier(stream)] = nil
    }

    /// The lines made for each set of topics while one group is sent, kept from
    /// group to group: publishing allocates nothing once they have grown.
    private var made: [(topics: EventTopics, lines: RecordWriter, isEmpty: Bool)] = []
    private var madeCount = 0

    /// Sends one group: the events of one command, batch, reload or load. A
    /// subscriber gets the lines of its topics and the closing `end`, or nothing when
    /// none of the group is for it. The group is numbered whether or not anybody
    /// listens. Subscribers to the same topics share one rendering of the lines.
    /// Changes that no subscriber's records show, for the in-process listeners of
    /// expansion, whose views hold hidden nodes too. They take a sequence number as
    /// a group does; subscribers see the gap, as they do for a group of topics they
    /// did not ask for.
    func tellListeners(about changes: [Change]) {
        guard !listeners.isEmpty else { return }
        sequence += 1
        let notice = EventNotice(sequence: sequence, topics: .expansion, changes: changes)
        for listener in listeners.values where listener.topics.contains(.expansion) { listener.hear(notice) }
    }

    func publish(_ group: EventGroup, changes: [Change] = []) {
        sequence += 1
        if !listeners.isEmpty { tellListeners(group, changes) }
        guard !subscriptions.isEmpty else { return }
        madeCount = 0
        var dropped: [ObjectIdentifier] = []
        for (key, subscription) in subscriptions {
            let k = lines(of: group, for: subscription.topics)
            guard !made[k].isEmpty else { continue }
            let sent = made[k].lines.bytes.withUnsafeBytes { subscription.stream.send($0) }
            if !sent {
                logger.warning("dropped a subscriber that stopped reading (its queue passed the bound)")
                dropped.append(key)
            }
        }
        for key in dropped { subscriptions[key] = nil }
    }

    private func tellListeners(_ group: EventGroup, _ changes: [Change]) {
        let notice = EventNotice(sequence: sequence, topics: group.topics, changes: changes)
        for listener in listeners.values where !listener.topics.isDisjoint(with: group.topics) {
            listener.hear(notice)
        }
    }

    /// Where in `made` the lines of `group` for `topics` are, written there first if
    /// this group has not needed them yet.
    private func lines(of group: EventGroup, for topics: EventTopics) -> Int {
        if let k = made[..<madeCount].firstIndex(where: { $0.topics == topics }) { return k }
        if madeCount == made.count { made.append((topics, RecordWriter(), true)) }
        let k = madeCount
        madeCount += 1
        made[k].topics = topics
        made[k].lines.truncate(to: 0)
        made[k].isEmpty = !group.write(sequence: sequence, for: topics, to: &made[k].lines)
        return k
    }
}
