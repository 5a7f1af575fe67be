import MenuCore
import MenuLoop
import MenuProtocol

/// `find` on a snapshot of the model, on a pool thread: a search of a big menu
/// takes milliseconds to tens of them, and on the loop every other client would
/// wait that long. The answers are the model's as it was when the request came,
/// spelled there too (paths, titles, values), so a change made meanwhile cannot
/// mix two states in one reply.
enum OffLoopSearch {
    static func find(_ query: String, limit: Int, in model: MenuModel, loop: EventLoop) -> Completion<
        CommandOutput
    > {
        let snapshot = model.snapshot()
        let answer = Completion<CommandOutput>()
        let search = { @Sendable () -> Result<[FoundRecord], MenuError> in
            let model = MenuModel(searching: snapshot)
            do throws(MenuError) {
                // A big menu's search takes no more cores than the pool, which leaves
                // the loop one: with both cores searching, the loop and its clients
                // woke onto a core busy with a part. Parts beyond this thread run on
                // libdispatch's threads, which only this uses in the daemon: they stay
                // in the background.
                let found = try model.find(query, limit: limit, threads: BackgroundWork.threads) {
                    ThreadPriority.lowerToBackground()
                }
                return .success(found.map { FoundRecord($0, in: model) })
            } catch {
                return .failure(error)
            }
        }
        let done = { (result: Result<[FoundRecord], MenuError>) in
            switch result {
            case .success(let records):
                var output = CommandOutput(listening: false)
                for record in records { record.write(to: &output.reply) }
                answer.succeed(output)
            case .failure(let error):
                answer.fail(ProtocolError(error))
            }
        }
        do throws(UVError) {
            try BackgroundWork.run(on: loop, search, then: done)
        } catch {
            // No worker thread to be had: searched here, as before there were any.
            done(search())
        }
        return answer
    }
}
