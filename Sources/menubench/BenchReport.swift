import Foundation

/// Prints the results as a table and writes them into BENCHMARKS.md between
/// markers, so the hand-written analysis around them survives every run.
struct BenchReport {
    var results: [BenchResult]
    /// Tables of their own after the main one, such as the socket section's matrix.
    var tables: [String] = []

    var table: String {
        var out = "| section | measurement | figure | compared with | target | met |\n"
        out += "|---|---|---|---|---|---|\n"
        for r in results {
            let met = r.met.map { $0 ? "yes" : "**no**" } ?? ""
            out += "| \(r.section) | \(r.name) | \(r.value) | \(r.comparison) | \(r.target) | \(met) |\n"
        }
        for t in tables { out += "\n" + t }
        return out
    }

    static var machine: String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let mem =
            (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
            .split(separator: "\n").first?.split(separator: " ").dropFirst().first
            .flatMap { Int($0) }.map { "\($0 / 1_048_576) GiB" } ?? "unknown"
        var u = utsname()
        uname(&u)
        let kernel = withUnsafeBytes(of: &u.release) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu), \(mem) memory, Linux \(kernel)"
    }

    func write(to path: String, command: String) throws {
        let begin = "<!-- menubench:begin -->"
        let end = "<!-- menubench:end -->"
        let block = """
            \(begin)
            Last run: `\(command)` on \(BenchReport.machine).

            \(table)\(end)
            """
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n\n"
        if let a = text.range(of: begin), let b = text.range(of: end), a.lowerBound < b.upperBound {
            text.replaceSubrange(a.lowerBound..<b.upperBound, with: block)
        } else {
            text += "\n" + block + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
