import MenuBus
import MenuProtocol

/// `com.canonical.dbusmenu` on the item's `/MenuBar`: the layout, and the events
/// that act on it. Every action is a protocol request (``TrayAction``) answered
/// before the D-Bus reply, so a refused request is the caller's D-Bus error and
/// changes nothing.
extension TrayItem {
    func dbusMenuInterface() -> BusInterface {
        BusInterface(
            name: "com.canonical.dbusmenu",
            methods: [
                .init("GetLayout", "iias", "u(ia{sv}av)") { [unowned self] call throws(BusReplyError) in
                    let (parent, depth, names) = try Self.arguments(call) { () throws(BusError) in
                        (
                            try call.arguments.readInt32(), try call.arguments.readInt32(),
                            try call.arguments.readStrings()
                        )
                    }
                    let entry = try self.entry(parent, depth: depth)
                    self.fetched(entry, depth: depth)
                    call.reply([.uint32(tray.revision), self.encode(entry, depth: depth, names: Set(names))])
                },
                .init("GetGroupProperties", "aias", "a(ia{sv})") {
                    [unowned self] call throws(BusReplyError) in
                    let (wanted, names) = try Self.arguments(call) { () throws(BusError) in
                        (try call.arguments.readInt32s(), try call.arguments.readStrings())
                    }
                    let found: [BusValue] = wanted.compactMap { id in
                        guard let entry = try? self.entry(id) else { return nil }
                        return .structure([.int32(id), Self.properties(entry, names: Set(names))])
                    }
                    call.reply([.array(element: "(ia{sv})", found)])
                },
                .init("GetProperty", "is", "v") { [unowned self] call throws(BusReplyError) in
                    let (id, name) = try Self.arguments(call) { () throws(BusError) in
                        (try call.arguments.readInt32(), try call.arguments.readString())
                    }
                    guard let value = try self.entry(id).properties.first(where: { $0.0 == name })?.1 else {
                        throw .invalidArguments("menu entry \(id) has no property '\(name)'")
                    }
                    call.reply([.variant(value)])
                },
                .init("Event", "isvu", "") { [unowned self] call throws(BusReplyError) in
                    let (id, event) = try Self.arguments(call) { () throws(BusError) in
                        let id = try call.arguments.readInt32()
                        let event = try call.arguments.readString()
                        try call.arguments.skip("v")
                        _ = try call.arguments.readUInt32()
                        return (id, event)
                    }
                    let key = try self.key(id)
                    guard self.events.admit() else { throw Self.tooManyEvents }
                    self.perform(self.action(for: event, on: key)) { result in
                        switch result {
                        case .success: call.reply()
                        case .failure(let error): call.fail(error)
                        }
                    }
                },
                .init("EventGroup", "a(isvu)", "ai") { [unowned self] call throws(BusReplyError) in
                    let events = try Self.arguments(call) { () throws(BusError) in
                        try call.arguments.readArray(of: "(isvu)") { () throws(BusError) in
                            try call.arguments.readStructure("isvu") { () throws(BusError) in
                                let id = try call.arguments.readInt32()
                                let event = try call.arguments.readString()
                                try call.arguments.skip("v")
                                _ = try call.arguments.readUInt32()
                                return (id, event)
                            }
                        }
                    }
                    var unknown: [BusValue] = []
                    for (id, event) in events {
                        guard let key = try? self.key(id) else {
                            unknown.append(.int32(id))
                            continue
                        }
                        guard self.events.admit() else { throw Self.tooManyEvents }
                        self.perform(self.action(for: event, on: key)) { _ in }
                    }
                    if !events.isEmpty, unknown.count == events.count {
                        throw .invalidArguments("no menu entry among the events' ids")
                    }
                    call.reply([.array(element: "i", unknown)])
                },
                .init("AboutToShow", "i", "b") { [unowned self] call throws(BusReplyError) in
                    let id = try Self.arguments(call) { () throws(BusError) in try call.arguments.readInt32()
                    }
                    let key = try self.key(id)
                    self.perform(self.showing(key)) { result in
                        switch result {
                        case .success(let changed): call.reply([.bool(changed)])
                        case .failure(let error): call.fail(error)
                        }
                    }
                },
                .init("AboutToShowGroup", "ai", "aiai") { [unowned self] call throws(BusReplyError) in
                    let wanted = try Self.arguments(call) { () throws(BusError) in
                        try call.arguments.readInt32s()
                    }
                    var unknown: [BusValue] = []
                    var updated: [BusValue] = []
                    // An expand that loads children-cmd output answers later: the
                    // reply waits for every one, this handler's own turn counted too.
                    var pending = 1
                    func settle() {
                        pending -= 1
                        if pending == 0 {
                            call.reply([.array(element: "i", updated), .array(element: "i", unknown)])
                        }
                    }
                    for id in wanted {
                        guard let key = try? self.key(id) else {
                            unknown.append(.int32(id))
                            continue
                        }
                        pending += 1
                        self.perform(self.showing(key)) { result in
                            if case .success(let changed) = result, changed {
                                updated.append(.int32(id))
                            }
                            settle()
                        }
                    }
                    settle()
                },
            ],
            properties: [
                .init("Version", "u") { .uint32(3) },
                .init("TextDirection", "s") { .string("ltr") },
                .init("Status", "s") { .string("normal") },
                .init("IconThemePath", "as") { .array(element: "s", []) },
            ],
            signals: [
                .init("ItemsPropertiesUpdated", "a(ia{sv})a(ias)"),
                .init("LayoutUpdated", "ui"),
                .init("ItemActivationRequested", "iu"),
            ])
    }

    /// What an event names: a click, or a submenu opened or closed; nil for the
    /// others (`hovered`, and names this version of the spec does not know). A click
    /// closes the host's menu, so a showing ends with it.
    func action(for event: String, on key: TrayEntryKey) -> MenuCall? {
        switch event {
        case "clicked":
            hidden(nil)
            return TrayAction.click(key, in: tray.model)
        case "opened":
            return showing(key)
        case "closed":
            hidden(key)
            return nil
        default: return nil
        }
    }

    /// What showing `entry`'s submenu does: its first showing in this showing of the
    /// menu refreshes a `children-cmd` group (``TrayAction/show(_:in:)``), the others
    /// nothing.
    private func showing(_ key: TrayEntryKey) -> MenuCall? {
        shown(key) ? TrayAction.show(key, in: tray.model) : nil
    }

    /// Runs `action`; `done` hears whether it changed anything, or the command's
    /// error as a D-Bus error. No action is a success that changed nothing. A
    /// refreshed submenu whose children changed counts as changed, so that the host
    /// fetches them; one whose command printed what it shows already does not, so
    /// that a host that asks again on an update cannot run it in a loop.
    func perform(_ action: MenuCall?, done: @escaping (Result<Bool, BusReplyError>) -> Void) {
        guard let action else { return done(.success(false)) }
        let revision = tray.model.revision
        tray.call(action) { [tray] result in
            switch result {
            case .success(let change):
                done(.success(!change.isEmpty || tray.model.revision != revision))
            case .failure(let error): done(.failure(Self.busError(error)))
            }
        }
    }

    /// An event past the host's budget (``TrayEventBudget``).
    static let tooManyEvents = BusReplyError(
        name: "org.freedesktop.DBus.Error.LimitsExceeded",
        message: "more than \(Int(TrayEventBudget.perSecond)) events a second; this one is dropped")

    /// A refused command as a D-Bus error: `not-activatable` is
    /// `org.menud.Error.NotActivatable` (``TrayErrorName``).
    static func busError(_ error: ProtocolError) -> BusReplyError {
        BusReplyError(name: TrayErrorName.of(error.code), message: error.message)
    }

    /// `entry` and its entries `depth` levels down (all of them for -1, and for any
    /// other negative depth a host may send), as dbusmenu's `(ia{sv}av)`.
    func encode(_ entry: TrayEntry, depth: Int32, names: Set<String>) -> BusValue {
        let id = ids.id(for: entry.key)
        // Int32.min - 1 would trap: every negative depth stays -1.
        let below = depth < 0 ? -1 : depth - 1
        let children: [BusValue] =
            depth == 0 ? [] : entry.children.map { .variant(encode($0, depth: below, names: names)) }
        return .structure([.int32(id), Self.properties(entry, names: names), .array(element: "v", children)])
    }

    /// The entry's properties, only those named unless none are.
    static func properties(_ entry: TrayEntry, names: Set<String>) -> BusValue {
        .properties(entry.properties.filter { names.isEmpty || names.contains($0.0) })
    }

    /// Reads a call's arguments; sd-bus has checked their signature already, so a
    /// failure here is a message that lied about its contents.
    static func arguments<T>(_ call: BusCall, _ read: () throws(BusError) -> T) throws(BusReplyError) -> T {
        do throws(BusError) {
            return try read()
        } catch {
            throw .invalidArguments("cannot read the arguments: \(error)")
        }
    }
}
