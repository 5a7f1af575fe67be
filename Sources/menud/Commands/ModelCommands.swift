import MenuCore
import MenuLoop
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

    /// A mutation of the node at the first argument. Inlined into each handler, so
    /// that `apply` is called directly.
    @inline(__always)
    private static func mutate(
        _ invocation: Invocation, _ menu: ServedMenu, into out: inout CommandOutput,
        _ apply: (MenuModel, Int) throws(MenuError) -> Change
    ) throws(ProtocolError) {
        // Read once: each read of the menu's model retains and releases it.
        let model = menu.model
        let n = try node(invocation, in: model)
        let change = try Self.model { () throws(MenuError) in try apply(model, n) }
        out.record(change, in: model)
    }

    /// A mutation of the subtree at the first argument, or with none of the whole menu.
    @inline(__always)
    private static func mutateSubtree(
        _ invocation: Invocation, _ menu: ServedMenu, into out: inout CommandOutput,
        _ apply: (MenuModel, Int?) throws(MenuError) -> Change
    ) throws(ProtocolError) {
        let model = menu.model
        let root = invocation.arguments.isEmpty ? nil : try node(invocation, in: model)
        let change = try Self.model { () throws(MenuError) in try apply(model, root) }
        out.record(change, in: model)
    }

    static func rows(_ invocation: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        let model = menu.model
        let root = invocation.arguments.isEmpty ? nil : try node(invocation, in: model)
        let rows = model.rows(under: root)
        for row in rows { RowRecord(row).write(to: &out.reply) }
    }

    static func tree(_ invocation: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        let model = menu.model
        let root = invocation.arguments.isEmpty ? nil : try node(invocation, in: model)
        let rows = model.tree(under: root)
        for row in rows { RowRecord(row).write(to: &out.reply) }
    }

    static func get(_ invocation: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        let model = menu.model
        let n = try node(invocation, in: model)
        menu.rowRecords.write(node: n, index: model.rowIndex(of: n), in: model, to: &out.reply)
    }

    static func row(_ invocation: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        guard let n = invocation.arguments.integer(0) else {
            throw ProtocolError(
                .wrongArguments, "row number must be an integer: \(invocation.arguments[0])")
        }
        let model = menu.model
        guard let node = model.node(atRow: n) else {
            throw ProtocolError(MenuError.noSuchRow(n))
        }
        menu.rowRecords.write(node: node, index: n, in: model, to: &out.reply)
    }

    /// Searched on a pool thread (``OffLoopSearch``).
    static func find(_ invocation: Invocation, _ menu: ServedMenu, _ loop: EventLoop) -> Completion<
        CommandOutput
    > {
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
        return OffLoopSearch.find(invocation.arguments[0], limit: limit, in: menu.model, loop: loop)
    }

    static func expand(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput) throws(ProtocolError)
    {
        try mutate(i, menu, into: &out) { m, n throws(MenuError) in
            try m.expand(node: n, recursive: i.has("--recursive"))
        }
    }

    static func collapse(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        try mutate(i, menu, into: &out) { m, n throws(MenuError) in
            try m.collapse(node: n, recursive: i.has("--recursive"))
        }
    }

    static func toggle(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput) throws(ProtocolError)
    {
        try mutate(i, menu, into: &out) { m, n throws(MenuError) in
            try m.toggle(node: n, recursive: i.has("--recursive"))
        }
    }

    static func expandAll(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        try mutateSubtree(i, menu, into: &out) { m, root throws(MenuError) in try m.expandAll(under: root) }
    }

    static func collapseAll(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        try mutateSubtree(i, menu, into: &out) { m, root throws(MenuError) in try m.collapseAll(under: root) }
    }

    static func expandTo(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        try mutate(i, menu, into: &out) { m, n throws(MenuError) in try m.expandTo(node: n) }
    }

    static func set(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput) throws(ProtocolError) {
        try mutate(i, menu, into: &out) { m, n throws(MenuError) in try m.set(node: n, i.arguments[1]) }
    }

    static func step(_ i: Invocation, _ menu: ServedMenu, _ out: inout CommandOutput) throws(ProtocolError) {
        try mutate(i, menu, into: &out) { m, n throws(MenuError) in
            try m.step(node: n, i.arguments.count > 1 ? i.arguments[1] : nil)
        }
    }

    /// What an item's activation starts, it starts through `applications`' launcher.
    static func activate(
        _ invocation: Invocation, _ menu: ServedMenu, _ applications: ServedApplications,
        _ out: inout CommandOutput
    ) throws(ProtocolError) {
        let model = menu.model
        let n = try node(invocation, in: model)
        // Spelled for the records: as the request gave it, or from the node.
        let path = invocation.node == nil ? invocation.arguments[0] : model.path(of: n)
        let change = try atomically(model) { () throws(ProtocolError) in
            let (_, activation) = try Self.model { () throws(MenuError) in try model.activate(node: n) }
            try report(n, path, activation, model: model, applications: applications, into: &out)
        }
        out.record(change, in: model)
    }

    /// Runs `body`, an activation and its report, as one change of the model: when a
    /// confirmed command cannot start, the question its yes closed is open again, so
    /// that the `ERR` leaves the menu as it was. Returns what the model changed.
    static func atomically(_ model: MenuModel, _ body: () throws(ProtocolError) -> Void)
        throws(ProtocolError)
        -> Change
    {
        try model.batch { _ throws(ProtocolError) in try body() }
    }

    /// Reports an activation: the `activated` record in the reply and to subscribers,
    /// or for an item's run the `ran` record in the reply (starting the item's command
    /// first) and `activated … ran` to subscribers.
    static func report(
        _ n: Int, _ path: String, _ activation: Activation, model: MenuModel,
        applications: ServedApplications,
        into out: inout CommandOutput
    )
        throws(ProtocolError)
    {
        switch activation {
        case .run(let command):
            let started = try applications.launcher.startItem(command, at: path)
            out.reply.record(["ran", started.pid, started.shown])
            out.notify(["activated", path, "ran"], topics: .activate)
        case .toggled: out.announce(["activated", path, "toggled"], topics: .activate)
        case .flipped: out.announce(["activated", path, "flipped"], topics: .activate)
        case .picked: out.announce(["activated", path, "picked"], topics: .activate)
        case .none:
            // An application of an applications group: its program, never a shell.
            if let launch = applications.launch(of: n, in: model) {
                let started = try applications.launcher.start(launch, path: path)
                out.reply.record(["ran", started.pid, started.shown])
                out.notify(["activated", path, "ran"], topics: .activate)
            } else {
                out.announce(["activated", path, "none"], topics: .activate)
            }
        case .declined: out.announce(["activated", path, "declined"], topics: .activate)
        }
    }
}
