/// Runs `body`, then `cleanup` however `body` ends: the shape of every `with…`
/// helper that starts something a test must not leave behind (a daemon, an X or
/// sway session, a user).
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    do {
        let result = try await body()
        await cleanup()
        return result
    } catch {
        await cleanup()
        throw error
    }
}
