import MenuCore
import MenuProtocol

/// Reloading the config without losing what the user did, and without ever serving
/// a broken one.
extension DaemonState {
    /// Loads the config again. On success the new tree replaces the old with the
    /// user's state carried over by path, and subscribers get the splices from the old
    /// rows to the new; on failure the old tree stays untouched and subscribers get
    /// the errors. Either way the `config` event goes out now, before any reply.
    /// Returns the reply's records, or the errors as `reload-failed`.
    ///
    /// While the built-in menu is served, the default paths are looked at again, and
    /// a config found there is loaded; the daemon serves that file from then on, once
    /// it has loaded without errors.
    /// How many of a failed config's errors reach clients.
    static let errorsSentAtMost = 100

    func reload(because trigger: String) -> Result<RecordWriter, ProtocolError> {
        let target = location.lookedAtAgain()
        switch target.load() {
        case .failure(let errors):
            logger.error("reload (\(trigger)) failed, keeping the old menu:\n\(errors)")
            var group = EventGroup(keepsRecords: events.hasSubscribers)
            // Capped for clients: one event of megabytes would pass the subscribers'
            // bound and drop every one of them.
            let summary = errors.summary(atMost: Self.errorsSentAtMost)
            group.record(topics: .config) { $0.record(["config", "failed", summary]) }
            events.publish(group)
            return .failure(ProtocolError(.reloadFailed, summary))
        case .success(let loaded):
            if target != location {
                location = target
                onLocationChange?()
            } else if let awaited = target.awaited {
                logger.info("no config at \(awaited); serving the built-in menu")
            }
            config = loaded
            keepChildrenOfUnchangedCommands()
            let filled = filledConfig()
            commandGroups = filled.childrenCommands
            let output = replaceModel(
                with: MenuModel(config: filled),
                configRecords: [["config", "reloaded", loaded.file]],
                spliceTopics: [.expansion, .config])
            logger.info("reloaded \(loaded.file) (\(trigger))")
            commit(output, runOnChange: false)
            loadOpenGroups()
            onReload?()
            return .success(output.reply)
        }
    }

    /// Swaps in `next`, a model of the current config, carrying expansion and values
    /// over where the node still exists and the value is still valid. Returns the
    /// records of the change, after the `config` records given, without publishing them.
    func replaceModel(with next: MenuModel, configRecords: [[String]], spliceTopics: EventTopics)
        -> CommandOutput
    {
        let (change, dropped) = model.carryState(into: next, with: keptState)
        model = next
        keep(dropped, when: "reload")
        var output = CommandOutput(listening: events.hasSubscribers)
        for record in configRecords { output.announce(record, topics: .config) }
        output.record(change, in: next, spliceTopics: spliceTopics)
        return output
    }
}
