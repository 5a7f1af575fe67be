import Logging
import MenuProtocol

/// Numbers event groups and hands each subscriber the lines of its topics. Lives on
/// the daemon's one event loop with the model, so groups are numbered and delivered
/// in exactly the order their changes were applied, to every subscriber alike.
final class EventHub {
    private struct Subscription {
        var stream: ClientConnection
        var topics: EventTopics
    }

    /// The last group's number; groups are numbered from 1 whether or not anybody
    /// listens, so a number identifies a change for the daemon's whole run.
    private(set) var sequence: UInt64 = 0
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    var subscriberCount: Int { subscriptions.count }

    /// Whether an event group's records must be kept for somebody.
    var hasSubscribers: Bool { !subscriptions.isEmpty }

    /// Starts (or changes the topics of) a connection's subscription.
    func subscribe(_ stream: ClientConnection, topics: EventTopics) {
        subscriptions[ObjectIdentifier(stream)] = Subscription(stream: stream, topics: topics)
    }

    func isSubscribed(_ stream: ClientConnection) -> Bool {
        subscriptions[ObjectIdentifier(stream)] != nil
    }

    func unsubscribe(_ stream: ClientConnection) {
        subscriptions[ObjectIdentifier(stream)] = nil
    }

    /// Sends one group: the events of one command, batch, reload or load. A
    /// subscriber gets the lines of its topics and the closing `end`, or nothing when
    /// none of the group is for it. The group is numbered whether or not anybody
    /// listens. Subscribers to the same topics share one copy of the lines.
    func publish(_ group: EventGroup) {
        sequence += 1
        guard !subscriptions.isEmpty else { return }
        var byTopics: [EventTopics: [UInt8]?] = [:]
        for subscription in subscriptions.values {
            let lines: [UInt8]?
            if let made = byTopics[subscription.topics] {
                lines = made
            } else {
                lines = group.lines(sequence: sequence, for: subscription.topics)
                byTopics[subscription.topics] = .some(lines)
            }
            guard let lines else { continue }
            if !subscription.stream.send(lines) {
                logger.warning("dropped a subscriber that stopped reading (its queue passed the bound)")
                unsubscribe(subscription.stream)
            }
        }
    }
}
