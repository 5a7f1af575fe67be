import NIOCore
import ServiceLifecycle
import UnixSignals

/// Turns SIGHUP into a reload, the way daemons traditionally re-read their config.
/// A service of its own so that it stops listening when the daemon shuts down.
struct ReloadSignalService: Service {
    let state: NIOLoopBound<DaemonState>

    func run() async throws {
        let state = self.state
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            state.eventLoop.execute { _ = state.value.reload(because: "SIGHUP") }
        }
    }
}
