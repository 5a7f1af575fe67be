import MenuCore
import MenuProtocol

/// The requests between `begin` and `end`, checked as they come and applied at `end`
/// inside ``MenuModel/batch(_:)``, so that they take effect entirely or not at all.
/// Entries that failed their checks stay in the queue as errors, so `end` can name the
/// first failing position.
struct Batch {
    private(set) var entries: [Result<Invocation, ProtocolError>] = []

    /// Queues one request of the batch; a command that cannot be batched is queued as
    /// its error.
    mutating func add(_ entry: Result<Invocation, ProtocolError>) {
        guard case .success(let invocation) = entry, !invocation.command.batchable else {
            entries.append(entry)
            return
        }
        entries.append(
            .failure(
                ProtocolError(.notBatchable, "'\(invocation.command.name)' cannot be used in a batch")))
    }

    /// The invocations that passed their checks.
    var invocations: [Invocation] { entries.compactMap { try? $0.get() } }

    /// A failing command's 1-based position and error, carried out of the model's
    /// batch so that the model undoes everything before the reply is built.
    private struct Failure: Error {
        var position: Int
        var error: ProtocolError
    }

    /// Applies the batch, writing into `output`: every command, or none when one fails
    /// (`batch-failed`, with its position).
    func run(in service: MenuService, into output: inout CommandOutput) -> Result<Void, ProtocolError> {
        for (i, entry) in entries.enumerated() {
            if case .failure(let error) = entry { return .failure(Self.failed(i + 1, error)) }
        }
        do throws(Failure) {
            let change = try service.model.batch { _ throws(Failure) in
                for (i, entry) in entries.enumerated() {
                    guard case .success(let invocation) = entry, case .run = invocation.command.action else {
                        continue
                    }
                    do throws(ProtocolError) {
                        try invocation.command.body(invocation, service, &output)
                    } catch {
                        throw Failure(position: i + 1, error: error)
                    }
                }
            }
            output.record(change, in: service.model)
            return .success(())
        } catch {
            return .failure(Self.failed(error.position, error.error))
        }
    }

    private static func failed(_ position: Int, _ error: ProtocolError) -> ProtocolError {
        ProtocolError(.batchFailed, "\(position): \(error.code.rawValue) \(error.message)")
    }
}
