/// The kinds of change a subscriber can ask for (`subscribe [TOPICS]`). A set, so
/// that one event line can belong to more than one topic: the row splices of a
/// reload matter to whoever follows rows (`expansion`) and to whoever follows the
/// config.
public struct EventTopics: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let expansion = EventTopics(rawValue: 1 << 0)
    public static let value = EventTopics(rawValue: 1 << 1)
    public static let activate = EventTopics(rawValue: 1 << 2)
    public static let config = EventTopics(rawValue: 1 << 3)
    /// A focus cursor moved: views show the focus, so they redraw even when no row changed.
    public static let focus = EventTopics(rawValue: 1 << 4)
    public static let all: EventTopics = [.expansion, .value, .activate, .config, .focus]

    /// The protocol's names, in the order the docs list them.
    public static let names: [(name: String, topic: EventTopics)] = [
        ("expansion", .expansion), ("value", .value), ("activate", .activate), ("config", .config),
        ("focus", .focus),
    ]

    /// The names as a list for people to read: `expansion, value, …`.
    public static var nameList: String { names.map(\.name).joined(separator: ", ") }

    /// The topics named by `words`; all of them when there are none.
    public static func parse(_ words: [String]) throws(ProtocolError) -> EventTopics {
        guard !words.isEmpty else { return .all }
        var topics: EventTopics = []
        for word in words {
            guard let entry = names.first(where: { $0.name == word }) else {
                throw ProtocolError(
                    .wrongArguments, "unknown topic '\(word)' (expected one of: \(nameList))")
            }
            topics.insert(entry.topic)
        }
        return topics
    }
}
