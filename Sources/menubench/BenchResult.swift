/// One line of the report: a measured figure, what it is compared with, and the
/// target it must meet, so the table says by itself whether a target holds.
struct BenchResult {
    var section: String
    var name: String
    var value: String
    var comparison: String = ""
    var target: String = ""
    /// nil when the line has no target.
    var met: Bool?

    /// A measurement that could not be made, and why.
    static func failed(_ section: String, _ name: String, _ why: String) -> BenchResult {
        BenchResult(section: section, name: name, value: "failed: \(why)")
    }

    static func micros(_ nanos: Double) -> String {
        nanos >= 1e6 ? "\(rounded(nanos / 1e6)) ms" : "\(rounded(nanos / 1e3)) µs"
    }

    static func rounded(_ x: Double, places: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let v = (x * scale).rounded() / scale
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}
