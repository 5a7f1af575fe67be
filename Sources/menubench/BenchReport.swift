import Foundation

/// Prints the results as a table and writes them into BENCHMARKS.md between
/// markers, so the hand-written analysis around them survives every run.
///
/// A section may have a block of its own in the file (`<!-- menubench:SECTION:begin
/// -->` to `<!-- menubench:SECTION:end -->`); the other sections' rows, and the
/// tables after them, go in the main block (`<!-- menubench:begin -->`). A block is
/// rewritten only by a run that has rows for it, so that a run of some sections
/// leaves the others' figures as their last run left them, and each block says
/// which run wrote it.
struct BenchReport {
    var results: [BenchResult]
    /// Tables of their own after the main one, such as the socket section's matrix.
    var tables: [String] = []

    var table: String { Self.table(results, tables) }

    private static func table(_ results: [BenchResult], _ tables: [String]) -> String {
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
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n\n"
        var main: [BenchResult] = []
        var own: [(section: String, rows: [BenchResult])] = []
        for r in results {
            if !text.contains(Self.marker(r.section, "begin")) {
                main.append(r)
            } else if let k = own.firstIndex(where: { $0.section == r.section }) {
                own[k].rows.append(r)
            } else {
                own.append((r.section, [r]))
            }
        }
        let header = "Last run: `\(command)` on \(BenchReport.machine)."
        if !main.isEmpty || !tables.isEmpty {
            Self.replace(block: nil, with: header + "\n\n" + Self.table(main, tables), in: &text)
        }
        for (section, rows) in own {
            Self.replace(block: section, with: header + "\n\n" + Self.table(rows, []), in: &text)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `<!-- menubench:begin -->`, or `<!-- menubench:SECTION:begin -->`.
    private static func marker(_ section: String?, _ end: String) -> String {
        "<!-- menubench:\(section.map { $0 + ":" } ?? "")\(end) -->"
    }

    /// Puts `content` between the block's markers, or a new block at the end.
    private static func replace(block section: String?, with content: String, in text: inout String) {
        let begin = marker(section, "begin")
        let end = marker(section, "end")
        let block = "\(begin)\n\(content)\(end)"
        if let a = text.range(of: begin), let b = text.range(of: end), a.lowerBound < b.upperBound {
            text.replaceSubrange(a.lowerBound..<b.upperBound, with: block)
        } else {
            text += "\n" + block + "\n"
        }
    }
}
