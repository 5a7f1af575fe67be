import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `on-change`: a value node's command, run after its value changed.
extension DaemonState {
    /// Starts the node's `on-change` command, if it has one, detached like an item's
    /// `exec`. The value and path go in the environment (`MENU_VALUE`, `MENU_PATH`),
    /// never into the command's text, so a value is never run as shell code. A
    /// command that cannot start or exits non-zero is logged; nothing waits for it.
    ///
    /// A hook is meant to apply a value and finish, and a slider can fire many of
    /// them; one that is still running after ``onChangeTimeout`` is killed with its
    /// whole process group (it leads its own session) and logged, so hung hooks cannot
    /// pile up.
    func runOnChange(_ path: String) {
        guard let n = model.tree.node(at: path), let command = model.tree.onChangeCommand(n) else { return }
        let value = model.value(of: n)?.description ?? ""
        do throws(ProtocolError) {
            let pid = try launcher.launch(command, environment: ["MENU_VALUE": value, "MENU_PATH": path])
            logger.info("on-change \(path): started pid \(pid)")
            let timeout = onChangeTimeout
            let deadline = loop.assumeIsolated().scheduleTask(in: timeout) { [logger] in
                logger.warning(
                    "on-change \(path): '\(command)' still running after \(Double(timeout.nanoseconds) / 1e9) s; killed it"
                )
                kill(-pid, SIGKILL)
            }
            children.register(pid) { [logger] status in
                deadline.cancel()
                if !status.succeeded { logger.warning("on-change \(path): '\(command)' \(status)") }
            }
        } catch {
            logger.error("on-change \(path): \(error.message)")
        }
    }
}
