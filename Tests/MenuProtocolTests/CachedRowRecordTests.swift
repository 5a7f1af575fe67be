import MenuConfigLoading
import MenuProtocol
import PropertyBased
import TestSupport
import Testing

@testable import MenuCore

/// ``RowRecordCache`` writes from bytes it keeps per node, told by the model's row
/// versions when they are stale; whatever the menu goes through, they must read as
/// a record built afresh.
@Suite struct CachedRowRecordTests {
    private static func builtin() throws -> MenuModel {
        MenuModel(config: try ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file).get())
    }

    /// Every node's record, from the cache and built afresh.
    private static func records(_ model: MenuModel, _ cache: inout RowRecordCache) -> (
        cached: [String], fresh: [String]
    ) {
        var cached: [String] = []
        var fresh: [String] = []
        for n in 0..<model.nodeCount {
            let index = model.rowIndex(of: n)
            cached.append(RecordWriter.line { cache.write(node: n, index: index, in: model, to: &$0) })
            fresh.append(RowRecord(model.core.makeRow(n, index: index)).line)
        }
        return (cached, fresh)
    }

    @Test func aNodesRecordFollowsWhatItShows() throws {
        let model = try Self.builtin()
        var cache = RowRecordCache()
        _ = Self.records(model, &cache)
        // Its own expansion, its own value and its title's `{value}`, a value its
        // subtitle reads (network's reads wifi), its choice's pick.
        // Each change after every record was read, so that none is stale by chance.
        _ = try model.toggle("settings/network")
        _ = Self.records(model, &cache)
        _ = try model.set("display/volume", "55")
        _ = Self.records(model, &cache)
        _ = try model.set("settings/network/wifi", "off")
        _ = Self.records(model, &cache)
        _ = try model.set("settings/appearance/theme", "Light")
        let (cached, fresh) = Self.records(model, &cache)
        #expect(cached == fresh)
        #expect(cached.contains { $0.contains("Wi-Fi off, Bluetooth off") })
        #expect(cached.contains { $0.hasPrefix("row\t") && $0.contains("\tVolume: 55%\t") })
    }

    @Test func aFailedBatchLeavesRecordsAsBefore() throws {
        let model = try Self.builtin()
        var cache = RowRecordCache()
        let before = Self.records(model, &cache).fresh
        _ = Self.records(model, &cache)
        #expect(throws: (any Error).self) {
            try model.batch { m in
                _ = try m.set("display/volume", "60")
                _ = try m.toggle("apps")
                // Read inside the batch: the undo must mark these stale again.
                _ = Self.records(m, &cache)
                _ = try m.set("display/volume", "not a number")
            }
        }
        let (cached, fresh) = Self.records(model, &cache)
        #expect(fresh == before)
        #expect(cached == fresh)
    }

    @Test func splicedChildrenAreRecordedAfresh() throws {
        let model = try Self.builtin()
        var cache = RowRecordCache()
        _ = Self.records(model, &cache)
        let children = [NodeSpec(id: "extra", kind: .item, title: TitleTemplate(parsing: "Extra"))]
        _ = try model.replaceChildren(of: "apps", with: children, filling: { _ in [] })
        let (cached, fresh) = Self.records(model, &cache)
        #expect(cached == fresh)
        #expect(cached.contains { $0.contains("\tapps/extra\t") })
    }

    /// Random toggles and sets, each followed by a look at a few nodes (which fills
    /// the cache as a client's `get` would): at the end every record reads fresh.
    @Test func recordsStayFreshThroughRandomChanges() async throws {
        let paths = [
            "apps", "settings", "settings/network", "settings/appearance", "settings/appearance/theme",
            "settings/system", "display", "power",
        ]
        let sets: [(String, String)] = [
            ("display/volume", "35"), ("display/volume", "80"), ("display/brightness", "40"),
            ("settings/network/wifi", "off"), ("settings/network/wifi", "on"),
            ("settings/network/bluetooth", "on"), ("settings/appearance/theme", "Solarized"),
            ("settings/appearance/accent", "green"), ("settings/system/hostname", "a-much-longer-host-name"),
        ]
        await propertyCheck(
            count: 100, input: Gen.int(in: 0...(paths.count + sets.count - 1)).array(of: 1...30)
        ) { steps in
            let model = try Self.builtin()
            var cache = RowRecordCache()
            for (k, step) in steps.enumerated() {
                if step < paths.count {
                    _ = try model.toggle(paths[step])
                } else {
                    let (path, value) = sets[step - paths.count]
                    _ = try model.set(path, value)
                }
                for n in stride(from: k % 3, to: model.nodeCount, by: 3) {
                    _ = RecordWriter.line {
                        cache.write(node: n, index: model.rowIndex(of: n), in: model, to: &$0)
                    }
                }
            }
            let (cached, fresh) = Self.records(model, &cache)
            #expect(cached == fresh)
        }
    }
}
