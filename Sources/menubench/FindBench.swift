import CMallocInfo
import Foundation
import MenuCore

/// `find` on menus of realistic titles (two or three words of a desktop's
/// vocabulary, some accented) against `fzf --filter` over the same titles, for a
/// fixed list of 100 queries, and the search index's memory beside the tree's.
struct FindBench {
    var sizes: [Int]
    var workDir: String

    static let words = [
        "audio", "volume", "output", "input", "microphone", "speaker", "headphones", "balance", "display",
        "brightness", "resolution", "scale", "night", "light", "color", "profile", "network", "wifi",
        "ethernet", "vpn", "proxy", "bluetooth", "devices", "pairing", "power", "battery", "suspend",
        "hibernate", "shutdown", "reboot", "session", "lock", "logout", "user", "accounts", "password",
        "keyboard", "layout", "shortcuts", "mouse", "touchpad", "pointer", "speed", "printer", "scanner",
        "camera", "files", "documents", "downloads", "music", "pictures", "videos", "terminal", "editor",
        "browser", "mail", "calendar", "contacts", "notes", "tasks", "calculator", "clock", "weather",
        "maps", "photos", "player", "recorder", "screenshot", "settings", "system", "monitor", "disks",
        "backup", "updates", "software", "packages", "firewall", "privacy", "location", "sharing",
        "notifications", "search", "language", "region", "date", "time", "accessibility", "zoom",
        "contrast", "theme", "dark", "icons", "fonts", "wallpaper", "workspace", "window", "panel",
        "dock", "launcher", "favorites", "recent", "trash", "archive", "écran", "réseau", "café",
        "größe", "énergie", "thème", "mémoire", "sécurité", "clé", "über",
    ]

    /// Words' starts, abbreviations, word pairs, letters scattered along a title,
    /// paths and accents: 100 queries, made once from a fixed seed.
    static let queries: [String] = {
        var out: [String] = []
        var rng = SplitMix(seed: 7)
        while out.count < 100 {
            let a = words[rng.next(words.count)]
            let b = words[rng.next(words.count)]
            let query: String
            switch out.count % 5 {
            case 0: query = String(a.prefix(3 + rng.next(3)))
            case 1: query = "\(a.prefix(3)) \(b.prefix(2))"
            case 2: query = String(a.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
            case 3: query = a
            default: query = "\(a.prefix(2))\(b.prefix(2))"
            }
            out.append(query)
        }
        return out
    }()

    /// A deterministic generator: the same menu and queries on every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// A menu of about `nodes` nodes, ten children to a group, every tenth item with
    /// two or three words of keywords, and its titles in tree order, each with its
    /// keywords after it (what fzf is given).
    static func menu(nodes: Int) -> (specs: [NodeSpec], titles: [String]) {
        var rng = SplitMix(seed: UInt64(nodes))
        var titles: [String] = []
        titles.reserveCapacity(nodes)
        var serial = 0
        func title() -> String {
            var parts = [words[rng.next(words.count)], words[rng.next(words.count)]]
            if rng.next(3) == 0 { parts.append(words[rng.next(words.count)]) }
            return parts.joined(separator: " ").capitalized
        }
        func make(budget: Int) -> [NodeSpec] {
            var out: [NodeSpec] = []
            if budget <= 10 {
                for _ in 0..<budget {
                    serial += 1
                    let t = title()
                    let keywords = serial % 10 == 0 ? [title()] : []
                    titles.append(([t] + keywords).joined(separator: " "))
                    out.append(
                        NodeSpec(
                            id: "n\(serial)", kind: .item, title: TitleTemplate(literal: t),
                            keywords: keywords))
                }
                return out
            }
            let share = (budget - 10) / 10
            var left = budget
            for k in 0..<10 where left > 0 {
                serial += 1
                let t = title()
                titles.append(t)
                let sub = k == 9 ? left - 1 : min(share, left - 1)
                let id = "g\(serial)"
                let children = sub > 0 ? make(budget: sub) : []
                out.append(
                    NodeSpec(id: id, kind: .group, title: TitleTemplate(literal: t), children: children))
                left -= sub + 1
            }
            return out
        }
        let specs = make(budget: nodes)
        return (specs, titles)
    }

    static func allocated() -> Int { Int(menubench_allocated_bytes()) }

    func run() -> [BenchResult] {
        var results: [BenchResult] = []
        let empty = "\(workDir)/empty.txt"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let fzf = ["/usr/bin/fzf", "--filter"]
        let hasFzf = FileManager.default.isExecutableFile(atPath: fzf[0])
        for nodes in sizes {
            let before = Self.allocated()
            var titles: [String] = []
            var config: MenuConfig?
            do {
                let (specs, t) = Self.menu(nodes: nodes)
                titles = t
                config = MenuConfig(file: "bench", menus: specs)
            }
            let titleFile = "\(workDir)/titles-\(nodes).txt"
            _ = FileManager.default.createFile(
                atPath: titleFile, contents: Data((titles.joined(separator: "\n") + "\n").utf8))
            titles = []
            let treeBytes = Self.allocated() - before
            let model = MenuModel(config: config!)
            config = nil
            let indexBytes = model.searchIndexBytes

            // Each query's best of three, the rounds taking turns with fzf's.
            var ours = [Double](repeating: .infinity, count: Self.queries.count)
            var theirs = [Double](repeating: .infinity, count: Self.queries.count)
            var startup = Double.infinity
            var answers = 0
            for _ in 0..<3 {
                for (k, query) in Self.queries.enumerated() {
                    let nanos = Stopwatch.once { answers += (try? model.find(query, limit: 20).count) ?? 0 }
                    ours[k] = min(ours[k], nanos)
                    if hasFzf {
                        theirs[k] = min(theirs[k], ChildProcess.run(fzf + [query], input: titleFile).nanos)
                    }
                }
                if hasFzf { startup = min(startup, ChildProcess.run(fzf + ["x"], input: empty).nanos) }
            }
            let (p50, p99) = Self.percentiles(ours)
            let target: (String, Bool)? =
                nodes == 10_000
                ? ("p99 ≤ 1 ms", p99 <= 1e6) : nodes == 1_000_000 ? ("p99 ≤ 30 ms", p99 <= 30e6) : nil
            var comparison = "no fzf"
            var faster = true
            if hasFzf {
                let (f50, f99) = Self.percentiles(theirs)
                let f50work = max(f50 - startup, 1)
                faster = p50 < f50work
                comparison =
                    "fzf --filter p50 \(BenchResult.micros(f50)), p99 \(BenchResult.micros(f99)) (its start on no input \(BenchResult.micros(startup))); p50 \(BenchResult.rounded(f50work / p50))× ours without its start"
            }
            results.append(
                BenchResult(
                    section: "find",
                    name: "find, 100 queries, best 20, \(nodes) nodes",
                    value: "p50 \(BenchResult.micros(p50)), p99 \(BenchResult.micros(p99))",
                    comparison: comparison,
                    target: (target.map { $0.0 + ", " } ?? "") + "faster than fzf",
                    met: (target?.1 ?? true) && faster))
            results.append(
                BenchResult(
                    section: "find",
                    name: "search index, \(nodes) nodes",
                    value: "\(BenchResult.rounded(Double(indexBytes) / 1_048_576)) MiB",
                    comparison:
                        "the tree \(BenchResult.rounded(Double(treeBytes) / 1_048_576)) MiB, ratio \(BenchResult.rounded(Double(indexBytes) / Double(treeBytes)))×",
                    target: "≤ 0.5× the tree", met: Double(indexBytes) <= 0.5 * Double(treeBytes)))
            _ = answers
        }
        return results
    }

    /// The 50th and 99th of `samples` by nearest rank.
    static func percentiles(_ samples: [Double]) -> (Double, Double) {
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double { sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        return (rank(0.5), rank(0.99))
    }
}
