import MenuCore
import MenuProtocol

/// The commands that read and change the menu. Each is a thin call into
/// ``MenuModel``; the model decides what is valid and why not, and MenuProtocol names
/// its errors with the protocol's codes, so these handlers only translate between
/// words and records.
enum ModelCommands {
    /// Runs a model call, turning its error into the protocol's.
    static func model<T>(_ body: () throws(MenuError) -> T) throws(ProtocolError) -> T {
        do {
            return try body()
        } catch {
            throw ProtocolError(error)
        }
    }

    /// The node at argument `position`, looked up from the request's bytes: a path
    /// becomes a `String` only for the error when there is no such node.
    static func node(_ invocation: Invocation, _ position: Int = 0, in model: MenuModel) throws(ProtocolError)
        -> Int
    {
        if position == 0, let n = invocation.node { return n }
        guard let n = invocation.arguments.withBytes(position, { model.node(atPath: $0) }) else {
            throw ProtocolError(MenuError.noSuchNode(invocation.arguments[position]))
        }
        return n
    }

    /// A mutation of the node at the first argument.
    private static func nodeMutation(
        _ apply: @escaping @Sendable (MenuModel, Int, Invocation) throws(MenuError) -> Change
    ) -> Command.Action {
        .run { invocation, service, out throws(ProtocolError) in
            // Read once: each read of the daemon's model retains and releases it.
            let menu = service.model
            let n = try node(invocation, in: menu)
            let change = try model { () throws(MenuError) in try apply(menu, n, invocation) }
            out.record(change, in: menu)
        }
    }

    /// A mutation of the subtree at the first argument, or with none of the whole menu.
    private static func subtreeMutation(
        _ apply: @escaping @Sendable (MenuModel, Int?) throws(MenuError) -> Change
    ) -> Command.Action {
        .run { invocation, service, out throws(ProtocolError) in
            let menu = service.model
            let root = invocation.arguments.isEmpty ? nil : try node(invocation, in: menu)
            let change = try model { () throws(MenuError) in try apply(menu, root) }
            out.record(change, in: menu)
        }
    }

    static let rows: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let rows = try model { () throws(MenuError) in try service.model.rows(under: invocation.path) }
        for row in rows { RowRecord(row).write(to: &out.reply) }
    }

    static let tree: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let rows = try model { () throws(MenuError) in try service.model.tree(under: invocation.path) }
        for row in rows { RowRecord(row).write(to: &out.reply) }
    }

    static let get: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let menu = service.model
        let n = try node(invocation, in: menu)
        service.menu.rowRecords.write(node: n, index: menu.rowIndex(of: n), in: menu, to: &out.reply)
    }

    static let row: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        guard let n = invocation.arguments.integer(0) else {
            throw ProtocolError(
                .wrongArguments, "row number must be an integer: \(invocation.arguments[0])")
        }
        let menu = service.model
        guard let node = menu.node(atRow: n) else {
            throw ProtocolError(MenuError.noSuchRow(n))
        }
        service.menu.rowRecords.write(node: node, index: n, in: menu, to: &out.reply)
    }

    static let find: Command.Action = .deferred { invocation, service in
        var limit = 20
        if invocation.arguments.count > 1 {
            guard let n = invocation.arguments.integer(1) else {
                return .failed(
                    ProtocolError(
                        .wrongArguments,
                        "the limit must be a whole number: \(invocation.arguments[1])"))
            }
            limit = n
        }
        return service.searchOffLoop(invocation.arguments[0], limit: limit)
    }

    static let expand = nodeMutation { m, n, i throws(MenuError) in
        try m.expand(node: n, recursive: i.has("--recursive"))
    }

    static let collapse = nodeMutation { m, n, i throws(MenuError) in
        try m.collapse(node: n, recursive: i.has("--recursive"))
    }

    static let toggle = nodeMutation { m, n, i throws(MenuError) in
        try m.toggle(node: n, recursive: i.has("--recursive"))
    }

    static let expandAll = subtreeMutation { m, root throws(MenuError) in try m.expandAll(under: root) }

    static let collapseAll = subtreeMutation { m, root throws(MenuError) in try m.collapseAll(under: root) }

    static let expandTo = nodeMutation { m, n, _ throws(MenuError) in try m.expandTo(node: n) }

    static let set = nodeMutation { m, n, i throws(MenuError) in try m.set(node: n, i.arguments[1]) }

    static let step = nodeMutation { m, n, i throws(MenuError) in
        try m.step(node: n, i.arguments.count > 1 ? i.arguments[1] : nil)
    }

    static let activate: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let menu = service.model
        let n = try node(invocation, in: menu)
        // Spelled for the records: as the request gave it, or from the node.
        let path = invocation.node == nil ? invocation.arguments[0] : menu.path(of: n)
        let change = try atomically(service) { () throws(ProtocolError) in
            let (_, activation) = try model { () throws(MenuError) in try menu.activate(node: n) }
            try report(path, activation, service: service, into: &out)
        }
        out.record(change, in: service.model)
    }

    /// Runs `body`, an activation and its report, as one change of the model: when a
    /// confirmed command cannot start, the question its yes closed is open again, so
    /// that the `ERR` leaves the menu as it was. Returns what the model changed.
    static func atomically(_ service: MenuService, _ body: () throws(ProtocolError) -> Void)
        throws(ProtocolError)
        -> Change
    {
        try service.model.batch { _ throws(ProtocolError) in try body() }
    }

    /// Reports an activation: the `activated` record in the reply and to subscribers,
    /// or for an item's run the `ran` record in the reply (starting the item's command
    /// first) and `activated … ran` to subscribers.
    static func report(
        _ path: String, _ activation: Activation, service: MenuService, into out: inout CommandOutput
    )
        throws(ProtocolError)
    {
        switch activation {
        case .run(let command):
            let pid = try service.processes.startItem(
                .shell(command), shown: command, at: path, logger: service.logger)
            out.reply.record(["ran", String(pid), command])
            out.notify(["activated", path, "ran"], topics: .activate)
        case .toggled: out.announce(["activated", path, "toggled"], topics: .activate)
        case .flipped: out.announce(["activated", path, "flipped"], topics: .activate)
        case .picked: out.announce(["activated", path, "picked"], topics: .activate)
        case .none:
            // An application of an applications group: its program, never a shell.
            if let launch = service.applicationLaunch(at: path) {
                let started = try service.applications.launcher.start(launch, path: path)
                out.reply.record(["ran", started.pid, started.shown])
                out.notify(["activated", path, "ran"], topics: .activate)
            } else {
                out.announce(["activated", path, "none"], topics: .activate)
            }
        case .declined: out.announce(["activated", path, "declined"], topics: .activate)
        }
    }
}
