import MenuCore
import MenuLoop
import MenuProtocol

/// Reloading the config without losing what the user did, without ever serving a
/// broken one, and without stalling clients while a big one is read: the work is a
/// ``ReloadJob`` on libuv's thread pool, and only the swap is done on the loop.
extension MenuService {
    /// How many of a failed config's errors reach clients.
    static let errorsSentAtMost = 100

    /// Loads the config again. On success the new tree replaces the old with the
    /// user's state carried over by path, and subscribers get the splices from the old
    /// rows to the new; on failure the old tree stays untouched and subscribers get
    /// the errors. The reply is the records of the change, or the errors as
    /// `reload-failed`. A reload that succeeds answers first and tells subscribers
    /// after, like every command; a failed one tells them first, then answers `ERR`.
    ///
    /// While the built-in menu is served, the default paths are looked at again, and
    /// a config found there is loaded; the daemon serves that file from then on, once
    /// it has loaded without errors.
    func reload(because trigger: String) -> Completion<ReloadReply> {
        let reply = Completion<ReloadReply>()
        menu.reloads.asked.append((trigger, reply))
        startAskedReloads()
        return reply
    }

    /// A reload nobody waits to be answered about (SIGHUP): its events go out when it
    /// is done.
    func reloadUnanswered(because trigger: String) {
        menu.reloads.asked.append((trigger, nil))
        startAskedReloads()
    }

    /// The config watch saw the file change, or appear. Events that leave the file as
    /// the last reload read it (its times set to what they were) reload nothing; a
    /// change while a reload reads the file is looked at once it is done.
    func configFileChanged(because trigger: String) {
        guard menu.reloads.running == nil else {
            menu.reloads.changedMeanwhile = true
            menu.logger.info("\(trigger) while a reload is under way; looked at when it ends")
            return
        }
        let target = menu.location.lookedAtAgain()
        if let path = target.path, target == menu.location, let signature = FileSignature.of(path),
            signature == menu.reloads.lastRead
        {
            menu.logger.info("\(path) reads as it did at the last reload; not reloaded")
            return
        }
        reloadUnanswered(because: trigger)
    }

    private func startAskedReloads() {
        guard menu.reloads.running == nil, !menu.reloads.asked.isEmpty else { return }
        let running = menu.reloads.asked
        menu.reloads.running = running
        menu.reloads.asked = []
        menu.logger.info("reloading (\(running.map(\.trigger).joined(separator: ", ")))")
        menu.reloads.changedMeanwhile = false
        menu.reloads.retries = 0
        startReloadJob(parsed: nil)
    }

    private func startReloadJob(parsed: (config: MenuConfig, signature: FileSignature?)?) {
        let job = ReloadJob(
            target: menu.location.lookedAtAgain(), parsed: parsed, old: model.snapshot(),
            kept: persistence.keptState,
            loadedChildren: menu.loadedChildrenByPath, provided: provided,
            gate: menu.reloads.gate)
        if menu.reloads.retries >= ReloadQueue.retriesAtMost {
            finishReload(job.run())
            return
        }
        do throws(UVError) {
            try BackgroundWork.run(on: loop, { job.run() }, then: { [self] in finishReload($0) })
        } catch {
            menu.logger.warning("reload: cannot use a worker thread (\(error)); reloading on the loop")
            finishReload(job.run())
        }
    }

    private func finishReload(_ outcome: ReloadOutcome) {
        guard let running = menu.reloads.running else { return }
        if isClosed {
            menu.reloads.running = nil
            for asker in running {
                asker.reply?.fail(ProtocolError(.reloadFailed, "the daemon is stopping"))
            }
            return
        }
        let target = menu.location.lookedAtAgain()
        // Written to again while it was read: what was read may be half a save.
        if menu.reloads.changedMeanwhile, let path = target.path,
            FileSignature.of(path) != outcome.signature
        {
            menu.logger.info("\(path) changed while it was read; reading it again")
            menu.reloads.changedMeanwhile = false
            startReloadJob(parsed: nil)
            return
        }
        menu.reloads.lastRead = outcome.signature
        switch outcome {
        case .failed(let errors, _):
            let trigger = running.map(\.trigger).joined(separator: ", ")
            menu.logger.error("reload (\(trigger)) failed, keeping the old menu:\n\(errors)")
            var group = EventGroup(keepsRecords: events.hasSubscribers)
            // Capped for clients: one event of megabytes would pass the subscribers'
            // bound and drop every one of them.
            let summary = errors.summary(atMost: Self.errorsSentAtMost)
            group.record(topics: .config) { $0.record(["config", "failed", summary]) }
            events.publish(group)
            let error = ProtocolError(.reloadFailed, summary)
            for asker in running { asker.reply?.fail(error) }
        case .prepared(let prepared):
            guard prepared.revision == model.revision else {
                // A client changed the menu while the job ran: carry its state over
                // again, from the config already read.
                menu.reloads.retries += 1
                startReloadJob(parsed: (prepared.config, prepared.signature))
                return
            }
            let (oldModel, oldConfig) = (model, menu.config)
            var output = swapIn(prepared, because: running.map(\.trigger).joined(separator: ", "))
            let records = output.reply
            // The first `reload` asked sends the events after its reply; without one
            // (SIGHUP, the watch) they go out now.
            let carrier = running.firstIndex { $0.reply != nil }
            let events = carrier == nil ? nil : output.takeEvents()
            children.heldReplies.renumber(from: oldModel, to: model)
            renumber(Renumbering(from: oldModel, to: model))
            menu.loadedChildren = [:]
            for (path, loaded) in prepared.loadedChildren {
                if let g = model.tree.node(at: path) { menu.loadedChildren[g] = loaded }
            }
            commit(output, runOnChange: false)
            loadOpenGroups()
            followProvidedChildren()
            followLiveValues()
            followRefreshes()
            menu.onReload?()
            // Consumed, so that a pool thread holds the last references and frees them.
            let released = Released(
                model: consume oldModel, config: consume oldConfig, output: consume output)
            do throws(UVError) {
                try BackgroundWork.run(on: loop, { released.free() }, then: { _ in })
            } catch {
                released.free()
            }
            for (k, asker) in running.enumerated() {
                asker.reply?.succeed(ReloadReply(records: records, events: k == carrier ? events : nil))
            }
        }
        menu.reloads.running = nil
        if menu.reloads.changedMeanwhile {
            menu.reloads.changedMeanwhile = false
            configFileChanged(because: "config file changed")
        }
        startAskedReloads()
    }

    /// Puts the prepared model in place, and returns the output that tells of it.
    private func swapIn(_ prepared: PreparedReload, because trigger: String) -> CommandOutput {
        if prepared.target != menu.location {
            menu.location = prepared.target
            menu.onLocationChange?()
        } else if let awaited = prepared.target.awaited {
            menu.logger.info("no config at \(awaited); serving the built-in menu")
        }
        menu.config = prepared.config
        menu.model = prepared.next
        persistence.keep(prepared.dropped, when: "reload")
        menu.logger.info("reloaded \(prepared.config.file) (\(trigger))")
        return prepared.takeOutput()
    }
}
