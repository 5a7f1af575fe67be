import Testing

/// Runs each test case of a suite on a ``ThreadExecutor`` of its own, so that what
/// it blocks on (sockets, processes, the daemon's replies) holds up that test alone,
/// and in a turn of ``TestGate``, so that a bounded number of them share the machine
/// however many there are. Every suite whose tests block carries it;
/// ``requireOwnThread(_:sourceLocation:)`` in the blocking helpers catches one that
/// does not.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // One thread per test case, none for the suite itself.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestGate.shared.run {
            let executor = ThreadExecutor(name: "test \(test.name)")
            defer { executor.finish() }
            try await withTaskExecutorPreference(executor) {
                try await function()
            }
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case runs on a thread of its own: see ``OwnThreadTrait``.
    public static var ownThread: Self { Self() }
}

/// Records an issue when a blocking call is made on the cooperative pool: the test's
/// suite lacks ``OwnThreadTrait``.
public func requireOwnThread(
    _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard !ThreadExecutor.isCurrentThreadOwn else { return }
    Issue.record(
        "\(what()) blocks, and runs on Swift concurrency's cooperative pool: give the suite the .ownThread trait",
        sourceLocation: sourceLocation)
}
