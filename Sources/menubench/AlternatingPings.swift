import Glibc

/// One client's `ping` latencies in short slices taken in turn with a load off and
/// on, so that what else the machine does, which comes in bursts of a second or
/// more, falls on both alike: the idle baseline measured in the same run.
struct AlternatingPings {
    var idle: [Double] = []
    var loaded: [Double] = []

    /// `load(true)` starts the load before each loaded slice and `load(false)` ends
    /// it before each idle one. nil when a ping fails.
    static func measure(
        _ client: inout SocketLines, slices: Int, sliceNanos: UInt64 = 250_000_000, load: (Bool) -> Void
    ) -> AlternatingPings? {
        var out = AlternatingPings()
        for k in 0..<slices {
            let loading = k % 2 == 1
            load(loading)
            let end = SocketLoad.now() + sliceNanos
            while SocketLoad.now() < end {
                let sent = SocketLoad.now()
                guard client.request("ping") else {
                    load(false)
                    return nil
                }
                let took = Double(SocketLoad.now() - sent)
                if loading { out.loaded.append(took) } else { out.idle.append(took) }
                // A client that pings now and then, at no fixed phase to the load.
                usleep(UInt32.random(in: 0...1000))
            }
        }
        load(false)
        out.idle.sort()
        out.loaded.sort()
        return out
    }

    var ratio: Double { Self.percentile(loaded, 99) / Self.percentile(idle, 99) }

    /// The loaded figure, with `detail` after the pings' count.
    func figure(_ detail: String = "") -> String {
        "p99 \(BenchResult.micros(Self.percentile(loaded, 99))), p50 \(BenchResult.micros(Self.percentile(loaded, 50))); \(loaded.count) pings"
            + (detail.isEmpty ? "" : ", " + detail)
    }

    /// The idle baseline and the ratio of the p99s.
    var comparison: String {
        "idle: p99 \(BenchResult.micros(Self.percentile(idle, 99))), p50 \(BenchResult.micros(Self.percentile(idle, 50))), \(idle.count) pings; ratio \(BenchResult.rounded(ratio))×"
    }

    static func percentile(_ sorted: [Double], _ p: Int) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, sorted.count * p / 100)]
    }
}
