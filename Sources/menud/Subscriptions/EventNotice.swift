import MenuCore
import MenuProtocol

/// One event group as an in-process listener hears it (``EventHub/listen(topics:_:)``):
/// its number, the topics of its records, and the model changes it carried, whose
/// nodes are numbered in the model as it is when the listener is told.
struct EventNotice {
    var sequence: UInt64
    var topics: EventTopics
    var changes: [Change]
}
