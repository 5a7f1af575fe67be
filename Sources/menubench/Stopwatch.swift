/// Times an operation in rounds and keeps the median round, so one slow round (a
/// page fault, the other core busy) does not become the figure.
enum Stopwatch {
    /// Nanoseconds per call of `body`, which is called `perRound` times a round.
    static func nanosPerCall(rounds: Int = 7, perRound: Int, _ body: (Int) -> Void) -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        var k = 0
        for _ in 0..<rounds {
            let start = clock.now
            for _ in 0..<perRound {
                body(k)
                k += 1
            }
            samples.append(nanos(clock.now - start) / Double(perRound))
        }
        return samples.sorted()[samples.count / 2]
    }

    static func nanos(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) * 1e9 + Double(atto) / 1e9
    }

    /// Wall time of one call, in nanoseconds.
    static func once(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return nanos(clock.now - start)
    }
}
