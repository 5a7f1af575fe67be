import MenuCore
import MenuProtocol
import TestSupport
import Testing

@Suite struct EventGroupTests {
    private func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// A change's records are written once: what the reply holds is what the
    /// subscribers read, each line behind `event SEQ`.
    @Test func subscribersReadTheReplysRecords() throws {
        let model = VolumeMenu.model
        let change = try model.set("volume", "60")
        var reply = RecordWriter()
        var events = EventGroup(keepsRecords: true)
        events.record(topics: .activate, in: &reply) { $0.record(["activated", "volume", "none"]) }
        ChangeRecord.write(change, in: model, spliceTopics: .expansion, to: &reply, events: &events)
        events.record(topics: .focus) { $0.record(["focus", "volume", "vol\tume"]) }

        #expect(text(reply.bytes) == "activated\tvolume\tnone\nvalue\tvolume\t60\n")
        #expect(events.count == 3)
        #expect(
            text(events.lines(sequence: 7, for: .all))
                == "event\t7\tactivated\tvolume\tnone\nevent\t7\tvalue\tvolume\t60\n"
                + "event\t7\tfocus\tvolume\tvol\\tume\nevent\t7\tend\n")
        #expect(
            text(events.lines(sequence: 8, for: .value)) == "event\t8\tvalue\tvolume\t60\nevent\t8\tend\n")
        #expect(events.lines(sequence: 9, for: .config) == nil)
    }

    /// With nobody listening the records are counted, so the group is still numbered,
    /// but not kept.
    @Test func aGroupNobodyHearsOnlyCounts() {
        var reply = RecordWriter()
        var events = EventGroup(keepsRecords: false)
        events.record(topics: .config, in: &reply) { $0.record(["config", "reloaded", "menu.yaml"]) }
        events.record(topics: .activate) { $0.record(["activated", "a", "ran"]) }
        #expect(text(reply.bytes) == "config\treloaded\tmenu.yaml\n")
        #expect(events.count == 2)
        #expect(events.lines(sequence: 1, for: .all) == nil)
    }
}
