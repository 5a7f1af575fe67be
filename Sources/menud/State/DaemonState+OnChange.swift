import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `on-change`: a value node's command, run after its value changed.
extension DaemonState {
    /// Starts `command`, node `n`'s `on-change` command, detached like an item's
    /// `exec`. The value and path go in the environment (`MENU_VALUE`, `MENU_PATH`),
    /// never into the command's text, so a value is never run as shell code. A
    /// command that cannot start or exits non-zero is logged; nothing waits for it.
    ///
    /// A hook is meant to apply a value and finish, and a slider can fire many of
    /// them; one that is still running after ``onChangeTimeout`` is killed with its
    /// whole process group (it leads its own session) and logged, so hung hooks cannot
    /// pile up.
    func runOnChange(_ command: String, node n: Int, path: String) {
        let value = model.value(of: n)?.description ?? ""
        let timeout = onChangeTimeout
        do throws(ProtocolError) {
            let process = try launch(
                command, environment: ["MENU_VALUE": value, "MENU_PATH": path], timeout: timeout,
                expired: { [logger] process in
                    logger.warning(
                        "on-change \(path): '\(command)' still running after \(timeout.seconds) s; killed it")
                    process.killGroup(SIGKILL)
                },
                ended: { [logger] result in
                    if !result.exit.succeeded {
                        logger.warning("on-change \(path): '\(command)' \(result.exit)")
                    }
                })
            logger.info("on-change \(path): started pid \(process.pid)")
        } catch {
            logger.error("on-change \(path): \(error.message)")
        }
    }
}
