import MenuBus
import MenuLoop
import TestSupport
import Testing

/// A system service's properties, read, set and followed through MenuBus, against
/// power-profiles-daemon as python-dbusmock serves it.
@Suite(.ownThread) struct BusPropertiesTests {
    static let name = "net.hadess.PowerProfiles"
    static let path = "/net/hadess/PowerProfiles"

    /// Runs the loop a turn at a time until `done`; a watchdog that does not keep the
    /// loop alive turns a hang into a failure.
    private func turn(_ loop: EventLoop, until what: String, _ done: () -> Bool) {
        let watchdog = LoopTimer(loop: loop)
        watchdog.keepsLoopAlive = false
        var hung = false
        watchdog.onFire = { hung = true }
        watchdog.start(after: .seconds(30))
        while !done() && !hung { loop.runOnce() }
        watchdog.close()
        #expect(!hung, "no \(what)")
    }

    private func withConnection(_ body: (MockSystemBus, EventLoop, BusConnection) async throws -> Void)
        async throws
    {
        try await withMockSystemBus(template: "power_profiles_daemon", name: Self.name) { bus in
            let loop = try EventLoop()
            let connection = try BusConnection(address: bus.address, on: loop)
            try await body(bus, loop, connection)
            connection.close()
            loop.runOnce()
        }
    }

    private func properties(_ loop: EventLoop, _ connection: BusConnection) -> [String: BusValue]? {
        var got: Result<[String: BusValue], BusReplyError>?
        connection.allProperties(of: Self.name, path: Self.path, interface: Self.name) { got = $0 }
        turn(loop, until: "GetAll's answer") { got != nil }
        return try? got?.get()
    }

    @Test func everyPropertyIsReadWhateverItsShape() async throws {
        try await withConnection { _, loop, connection in
            let read = try #require(properties(loop, connection))
            #expect(read["ActiveProfile"]?.text == "balanced")
            let profiles = try #require(read["Profiles"]?.elements)
            #expect(
                profiles.compactMap { $0.entries?["Profile"]?.text } == [
                    "power-saver", "balanced", "performance",
                ])
            #expect(read["ActiveProfileHolds"]?.elements == [])
        }
    }

    /// A property set by this client, and one set by another program, are both heard
    /// as `PropertiesChanged`.
    @Test func aChangeIsHeardWhoeverMadeIt() async throws {
        try await withConnection { bus, loop, connection in
            var heard: [String] = []
            connection.onPropertiesChanged(of: Self.name, path: Self.path, interface: Self.name) {
                _, changed, _ in
                if let profile = changed["ActiveProfile"]?.text { heard.append(profile) }
            }
            // The match is in place once a call made after it has been answered.
            _ = properties(loop, connection)
            var set: Result<Void, BusReplyError>?
            connection.setProperty(
                of: Self.name, path: Self.path, interface: Self.name, name: "ActiveProfile",
                to: .string("performance")
            ) { set = $0 }
            turn(loop, until: "Set's answer and its signal") { set != nil && heard.count == 1 }
            #expect((try? set?.get()) != nil)
            #expect(heard == ["performance"])

            try bus.call(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                member: "Set", ["ssv", Self.name, "ActiveProfile", "s", "power-saver"])
            turn(loop, until: "the other program's change") { heard.count == 2 }
            #expect(heard == ["performance", "power-saver"])
            #expect(properties(loop, connection)?["ActiveProfile"]?.text == "power-saver")
        }
    }

    /// Every kind of value MenuBus writes comes back as it went: added as properties
    /// through dbusmock's own `AddProperty`, then read with `GetAll`.
    @Test func everyKindOfValueGoesAndComesBackAsItWas() async throws {
        let values: [String: BusValue] = [
            "Byte": .byte(200), "Int16": .int16(-300), "UInt16": .uint16(60000), "Int32": .int32(-7),
            "UInt32": .uint32(4_000_000_000), "Int64": .int64(-1 << 40), "UInt64": .uint64(1 << 63),
            "Double": .double(0.25), "Bool": .bool(true), "Path": .objectPath("/a/b"),
            "Signature": .signature("a{sv}"), "Text": .string("x"),
            "Structure": .structure([.string("s"), .uint32(1)]),
            "Strings": .array(element: "s", [.string("a"), .string("b")]),
            "Map": .dictionary(value: "i", [(key: "k", value: .int32(3))]),
        ]
        try await withConnection { _, loop, connection in
            var added = 0
            for (name, value) in values {
                connection.call(
                    destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                    member: "AddProperty", arguments: [.string(Self.name), .string(name), .variant(value)]
                ) { answer in
                    #expect((try? answer.get()) != nil, "AddProperty \(name): \(answer)")
                    added += 1
                }
            }
            turn(loop, until: "AddProperty's answers") { added == values.count }
            let read = try #require(properties(loop, connection))
            for (name, value) in values { #expect(read[name] == .variant(value), "\(name)") }
            #expect(
                read["Byte"]?.integer == 200 && read["Double"]?.number == 0.25
                    && read["Bool"]?.boolean == true)
            #expect(read["Map"]?.entries?["k"]?.integer == 3 && read["Strings"]?.elements?.count == 2)
        }
    }

    /// A service that is not there is an error with its D-Bus name, not a hang.
    @Test func aMissingServiceIsAnError() async throws {
        try await withConnection { _, loop, connection in
            var got: Result<[String: BusValue], BusReplyError>?
            connection.allProperties(
                of: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager",
                interface: "org.freedesktop.NetworkManager"
            ) { got = $0 }
            turn(loop, until: "GetAll's error") { got != nil }
            guard case .failure(let error) = got else {
                Issue.record("answered \(String(describing: got))")
                return
            }
            #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }
}
