/// A result that comes later, on the daemon's loop: a state write, a group's
/// children loading, a command that answers once one of those is done. Everything
/// that completes it or waits for it runs on the loop's one thread, so it needs no
/// lock; callbacks added after it completed run at once.
final class Completion<Value> {
    private var result: Result<Value, any Error>?
    private var waiting: [(Result<Value, any Error>) -> Void] = []

    init() {}

    init(_ result: Result<Value, any Error>) { self.result = result }

    static func succeeded(_ value: Value) -> Completion { Completion(.success(value)) }

    static func failed(_ error: any Error) -> Completion { Completion(.failure(error)) }

    var isDone: Bool { result != nil }

    /// Completes it, once: a later call is ignored.
    func complete(_ result: Result<Value, any Error>) {
        guard self.result == nil else { return }
        self.result = result
        let callbacks = waiting
        waiting = []
        for callback in callbacks { callback(result) }
    }

    func succeed(_ value: Value) { complete(.success(value)) }

    func fail(_ error: any Error) { complete(.failure(error)) }

    func whenComplete(_ callback: @escaping (Result<Value, any Error>) -> Void) {
        if let result { callback(result) } else { waiting.append(callback) }
    }

    /// The value transformed once it comes; an error thrown by `transform` fails it.
    func map<Next>(_ transform: @escaping (Value) throws -> Next) -> Completion<Next> {
        let next = Completion<Next>()
        whenComplete { result in next.complete(result.flatMap { value in Result { try transform(value) } }) }
        return next
    }

    /// Waits for the completion `next` makes from the value.
    func flatMap<Next>(_ next: @escaping (Value) -> Completion<Next>) -> Completion<Next> {
        let chained = Completion<Next>()
        whenComplete { result in
            switch result {
            case .success(let value): next(value).whenComplete(chained.complete)
            case .failure(let error): chained.fail(error)
            }
        }
        return chained
    }

    /// Completes once every one of `completions` has, whether it succeeded or not.
    static func allComplete(_ completions: [Completion<Void>]) -> Completion<Void> {
        let all = Completion<Void>()
        var left = completions.count
        guard left > 0 else {
            all.succeed(())
            return all
        }
        for completion in completions {
            completion.whenComplete { _ in
                left -= 1
                if left == 0 { all.succeed(()) }
            }
        }
        return all
    }
}

extension Completion {
    /// The error transformed, for a caller that speaks of failures its own way.
    func mapError(_ transform: @escaping (any Error) -> any Error) -> Completion<Value> {
        let next = Completion<Value>()
        whenComplete { result in next.complete(result.mapError(transform)) }
        return next
    }
}
