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

    /// bench/raw-parse.c, beside this package's sources.
    static let rawParseSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bench/raw-parse.c")
        .path

    /// The baseline: bench/raw-parse.c built with `cc` (a C process starts in about a
    /// millisecond, so the ratio is menud's own cost), else this program's Swift
    /// twin, `menubench raw-parse`, when no compiler is there.
    private func baseline() -> (argv: (String) -> [String], name: String) {
        let binary = "\(workDir)/raw-parse"
        let built = ChildProcess.run([
            "/usr/bin/env", "cc", "-O2", "-o", binary, Self.rawParseSource, "-lyaml",
        ])
        if built.status == 0 { return ({ [binary, $0] }, "C libyaml parse") }
        return ({ ["\(binDir)/menubench", "raw-parse", $0] }, "raw libyaml parse (Swift; no cc)")
    }

    func run() -> [BenchResult] {
        var out: [BenchResult] = []
        let (rawParse, rawName) = baseline()
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
            // A one-node menu measures start-up alone, a millisecond or so: more runs.
            let times = n >= 1_000_000 ? 3 : n == 1 ? 31 : 9
            let (check, raw) = ChildProcess.alternatingMedians(
                ["\(binDir)/menud", "--check", "--config", file], rawParse(file),
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
                section: "load", name: "menud --check, \(nodes(n)) (\(mb(bytes)))",
                value: BenchResult.micros(check.nanos),
                comparison:
                    "\(rawName) \(BenchResult.micros(raw.nanos)), ratio \(BenchResult.rounded(ratio))×"
            )
            if n == 100_000 {
                line.target = "≤ 1.5× \(rawName)"
                line.met = ratio <= 1.5
            }
            out.append(line)
            // A spawned child's peak RSS starts at menubench's own (see above), which a
            // one-node menu stays under: its row would only repeat that.
            if n == 1 { continue }
            let rssRatio = Double(check.peakRSS) / Double(bytes)
            var rss = BenchResult(
                section: "load", name: "peak RSS, \(nodes(n))", value: mb(check.peakRSS),
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

    private func nodes(_ n: Int) -> String { n == 1 ? "1 node" : "\(n) nodes" }

    private func mb(_ bytes: Int) -> String {
        "\(BenchResult.rounded(Double(bytes) / 1_048_576, places: 1)) MiB"
    }
}
