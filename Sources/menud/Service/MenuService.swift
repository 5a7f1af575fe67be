import Logging
import MenuCore
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's parts, each owning its own state, and the steps that cross them. A
/// command's change is committed here (events, the state file, `children-cmd`
/// loads, `on-change`), and a reload or a group's children arriving replaces or
/// splices the menu here, renumbering the parts and passing each what it needs.
/// Lives on the daemon's single event loop, as the model must (see ``MenuServer``).
/// A handler gets from it only the parts its row of ``CommandBinding`` names.
final class MenuService {
    /// The menu being served: model, config, where it comes from.
    let menu: ServedMenu
    /// The state file.
    let persistence: Persistence
    /// The subscribers, and in-process listeners, of the event groups.
    let events: EventHub
    /// What value nodes read from the system, and their `on-change` commands.
    let liveValues: LiveValues
    /// The `children-cmd` loads and refreshes.
    let children: ChildrenLoader
    /// The focus cursors `nav` moves and every render shows.
    let focus: SharedFocus
    /// The installed applications, and the launcher of items and applications.
    let applications: ServedApplications
    /// The system services followed over D-Bus, for the groups and values that show
    /// them.
    let system: SystemServices
    let loop: EventLoop

    /// The parts that start programs share `processes`, which its owner (the daemon)
    /// closes after ``close()``.
    init(
        config: MenuConfig, location: ConfigLocation, store: StateStore?, processes: ProcessTable,
        childrenTimeout: Duration = .seconds(5), onChangeTimeout: Duration = .seconds(10), loop: EventLoop,
        logger: Logger
    ) {
        menu = ServedMenu(config: config, location: location, logger: logger)
        persistence = Persistence(store: store, menu: menu, loop: loop, logger: logger)
        let missing = MissingPrograms(logger: logger)
        events = EventHub(logger: logger)
        focus = SharedFocus(menu: menu)
        system = SystemServices(loop: loop, logger: logger)
        liveValues = LiveValues(
            processes: processes, missing: missing, onChangeTimeout: onChangeTimeout, refs: menu.refs,
            system: system, loop: loop, logger: logger)
        children = ChildrenLoader(
            timeout: childrenTimeout, processes: processes, refs: menu.refs, loop: loop, logger: logger)
        applications = ServedApplications(processes: processes, loop: loop, logger: logger)
        self.loop = loop
        liveValues.onReading = { [weak self] n, line in self?.applyReading(line, to: n) }
        children.refresh.onTick = { [weak self] g in self?.refreshChildren(g) }
        system.onChildren = { [weak self] sources in self?.systemChildrenChanged(sources) }
        followProvidedChildren()
    }

    /// The model being served, which commands read and change.
    var model: MenuModel { menu.model }

    /// What follows a change, once the reply to the command that made it is written:
    /// the subscribers hear of it, the state file will, and changed values run their
    /// `on-change` commands (only for what a client did: a reload or a group's
    /// children arriving is not the user changing a value). It starts no
    /// `children-cmd`: the dispatcher of a command that opened such groups loads them
    /// as a step of its own (``commitLoadingChildren(_:_:)``). Without `save` the
    /// state file is not written for it: for values read from the system, which are
    /// not restored from it.
    func commit(_ output: borrowing CommandOutput, runOnChange: Bool = true, save: Bool = true) {
        if output.hasEvents {
            events.publish(output.events, changes: output.changes)
        } else if output.hasChanges {
            // Nodes no client's rows show changed (a closed group's children came
            // anew): the in-process listeners, whose views hold every node (the tray),
            // are told all the same.
            events.tellListeners(about: output.changes)
        }
        guard output.hasChanges else { return }
        let changes = output.changes
        children.heldReplies.add(changes)
        if save { persistence.scheduleSave() }
        let loading = model.loadingGroups
        if loading.commands { forgetChildrenOfCollapsedGroups(changes) }
        if loading.refreshing || !children.refresh.isIdle { followRefreshes() }
        if !liveValues.commandIndex.isEmpty { readValuesOfOpenedGroups(changes) }
        followOpenSystemGroups()
        if runOnChange {
            for change in changes {
                for n in change.valueChanged {
                    if !liveValues.isEmpty, model.valueSource(of: n)?.system != nil,
                        let value = model.value(of: n)
                    {
                        liveValues.apply(value, to: n)
                    }
                    guard let command = model.onChangeCommand(of: n) else { continue }
                    liveValues.runOnChange(
                        command, node: n, path: model.path(of: n),
                        value: model.value(of: n)?.description ?? "")
                }
            }
        }
    }

    /// Nothing more is started once ``close()`` has run.
    var isClosed: Bool { menu.isClosed }

    /// Closes what keeps the loop running: the save timer, the readers' and the
    /// refreshes' timers, the watches. For the end of a graceful stop, before the
    /// processes' table is closed. The children-cmd runs still awaited are dropped
    /// too: they will never complete, and a connection holding its reply for one is
    /// held by it in turn.
    func close() {
        menu.close()
        applications.close()
        liveValues.close()
        system.close()
        children.close()
        persistence.close()
    }
}
