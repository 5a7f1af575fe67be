/// The socket section's figures, a row per server and request and a column per
/// load, so that one run's servers can be read side by side.
struct SocketMatrix {
    /// C connections, each with P requests in flight.
    struct Load: Hashable {
        var connections: Int
        var pipeline: Int
        var label: String { "c=\(connections) P=\(pipeline)" }
    }

    let loads: [Load]
    private(set) var rows: [String] = []
    private var cells: [String: [Load: String]] = [:]

    init(loads: [Load]) {
        self.loads = loads
    }

    mutating func record(_ row: String, _ load: Load, _ outcome: SocketLoad.Outcome?) {
        if cells[row] == nil {
            rows.append(row)
            cells[row] = [:]
        }
        cells[row]![load] = outcome.map(SocketMatrix.cell) ?? "failed"
    }

    mutating func note(_ row: String, _ load: Load, _ text: String) {
        if cells[row] == nil {
            rows.append(row)
            cells[row] = [:]
        }
        cells[row]![load] = text
    }

    var markdown: String {
        var out = "| server, request | " + loads.map(\.label).joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: loads.count) + "\n"
        for row in rows {
            out += "| \(row) | " + loads.map { cells[row]?[$0] ?? "" }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// Throughput, then p50 / p99 latency.
    private static func cell(_ o: SocketLoad.Outcome) -> String {
        var text = "\(rate(o.perSecond)); \(BenchResult.micros(o.p50)) / \(BenchResult.micros(o.p99))"
        if o.errors > 0 { text += "; \(o.errors) errors" }
        if o.dropped > 0 { text += "; \(o.dropped) dropped" }
        return text
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6
            ? "\(BenchResult.rounded(perSecond / 1e6))M"
            : "\(BenchResult.rounded(perSecond / 1e3, places: 0))k"
    }
}
