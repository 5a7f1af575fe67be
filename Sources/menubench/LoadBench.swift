import Foundation

/// Section 1: `menud --check` on generated menus against a raw libyaml parse of the
/// same files, both as whole processes so that process start costs both the same.
///
/// The files are written by a `menubench generate` child, never by this process:
/// Linux starts a `posix_spawn`ed child's peak RSS at its parent's peak (the child
/// runs in the parent's memory until `exec`), so a parent that had held a 118 MiB
/// menu in memory made every child look at least that big.
struct LoadBench {
    var sizes: [Int]
    var binDir: String
    var workDir: String

    func run() -> [BenchResult] {
        var out: [BenchResult] = []
        for n in sizes {
            let file = "\(workDir)/menu-\(n).yaml"
            defer { try? FileManager.default.removeItem(atPath: file) }
            let made = ChildProcess.run(["\(binDir)/menubench", "generate", "\(n)"], output: file)
            var info = stat()
            let bytes = stat(file, &info) == 0 ? Int(info.st_size) : 0
            guard made.status == 0, bytes > 0 else {
                out.append(
                    BenchResult(
                        section: "load", name: "\(n) nodes", value: "failed",
                        comparison: "menubench generate exit \(made.status)"))
                continue
            }
            let times = n >= 1_000_000 ? 3 : 9
            let (check, raw) = ChildProcess.alternatingMedians(
                ["\(binDir)/menud", "--check", "--config", file], ["\(binDir)/menubench", "raw-parse", file],
                times: times)
            guard check.status == 0, raw.status == 0 else {
                out.append(
                    BenchResult(
                        section: "load", name: "\(n) nodes", value: "failed",
                        comparison: "menud --check exit \(check.status), raw parse exit \(raw.status)"))
                continue
            }
            let ratio = check.nanos / raw.nanos
            var line = BenchResult(
                section: "load", name: "menud --check, \(n) nodes (\(mb(bytes)))",
                value: BenchResult.micros(check.nanos),
                comparison:
                    "raw libyaml parse \(BenchResult.micros(raw.nanos)), ratio \(BenchResult.rounded(ratio))×"
            )
            if n == 100_000 {
                line.target = "≤ 1.5× raw parse"
                line.met = ratio <= 1.5
            }
            out.append(line)
            let rssRatio = Double(check.peakRSS) / Double(bytes)
            var rss = BenchResult(
                section: "load", name: "peak RSS, \(n) nodes", value: mb(check.peakRSS),
                comparison:
                    "file \(mb(bytes)), ratio \(BenchResult.rounded(rssRatio))×; raw parse \(mb(raw.peakRSS))"
            )
            if n == 1_000_000 {
                rss.target = "≤ 2× file size"
                rss.met = rssRatio <= 2
            }
            out.append(rss)
        }
        return out
    }

    private func mb(_ bytes: Int) -> String {
        "\(BenchResult.rounded(Double(bytes) / 1_048_576, places: 1)) MiB"
    }
}
