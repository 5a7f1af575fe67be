import Foundation
import MenuApplications
import MenuCore

/// Section "applications": reading the installed applications for a `children-from:
/// applications` group, as menud's scan does it (find the desktop entries, read
/// each, filter, and make the menu's nodes), against a Python script that reads the
/// same files with `configparser` and picks the same keys, timed inside Python so
/// that its start-up is not counted. Both read warm files: the page cache holds them
/// after the first round. The figure is each one's best of 15 rounds, since the
/// other jobs of a shared machine stretch single rounds; the medians are shown too.
/// `menubench scan DIR` runs the scan alone, for profiling.
struct ApplicationsBench {
    var entries: Int
    var workDir: String

    func run() -> [BenchResult] {
        let top = workDir + "/applications-bench"
        let directory = top + "/share/applications"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: top) }
        for k in 0..<entries {
            try! Self.entry(k).write(
                toFile: "\(directory)/org.example.App\(k).desktop", atomically: false, encoding: .utf8)
        }
        let environment = ApplicationEnvironment(environment: [
            "XDG_DATA_HOME": top + "/share", "XDG_DATA_DIRS": top + "/none", "LANG": "de_DE.UTF-8",
            "PATH": "/usr/bin:/bin",
        ])
        let check = ApplicationMenu(ApplicationScan(environment).entries)
        precondition(check.launches.count == entries + entries / 4, "the scan found other entries")
        // Once more untimed, so that the files just written are settled in the caches.
        _ = ApplicationScan(environment)

        var times: [Double] = []
        // Each round's menu is kept until the end: freeing the last one is not timed.
        var kept: [ApplicationMenu] = []
        for _ in 0..<Self.rounds {
            times.append(
                Stopwatch.once { kept.append(ApplicationMenu(ApplicationScan(environment).entries)) })
        }
        times.sort()
        let (best, median) = (times[0], times[times.count / 2])
        let python = pythonMilliseconds(directory)
        let comparison =
            "median \(BenchResult.micros(median)); "
            + (python.map {
                "Python configparser best \(BenchResult.rounded($0.best)) ms (median \(BenchResult.rounded($0.median)) ms), "
                    + "ratio \(BenchResult.rounded(best / 1e6 / $0.best))×"
            } ?? "Python configparser not run (no python3)")
        return [
            BenchResult(
                section: "applications",
                name: "read \(entries) desktop entries into the menu (best of \(Self.rounds))",
                value: BenchResult.micros(best), comparison: comparison, target: "≤ 50 ms", met: best <= 50e6)
        ]
    }

    static let rounds = 15

    /// A desktop entry as distributions ship them: two dozen translations of its
    /// name and comment, keywords, and for every fourth an action.
    static func entry(_ k: Int) -> String {
        let languages = [
            "ar", "bg", "ca", "cs", "da", "de", "el", "es", "fi", "fr", "he", "hu", "it", "ja", "ko", "nl",
            "pl",
            "pt_BR", "ru", "sk", "sv", "tr", "uk", "zh_CN",
        ]
        let categories = [
            "Utility", "Network", "AudioVideo", "Development", "Game", "Office", "Graphics", "X-Other",
        ]
        var lines = ["[Desktop Entry]", "Type=Application", "Name=Application \(k)"]
        lines += languages.map { "Name[\($0)]=Anwendung \(k) (\($0))" }
        lines += ["GenericName=Tool", "Comment=Does thing number \(k)"]
        lines += languages.map { "Comment[\($0)]=Macht Ding Nummer \(k) (\($0))" }
        lines += [
            "Icon=app-\(k)", "Exec=app\(k) --flag %U", "Terminal=false",
            "Categories=\(categories[k % categories.count]);X-Extra;", "Keywords=one;two;three;",
            "StartupNotify=true", "MimeType=text/plain;image/png;",
        ]
        if k % 4 == 0 {
            lines += ["Actions=new;", "", "[Desktop Action new]", "Name=New Window"]
            lines += languages.map { "Name[\($0)]=Neues Fenster (\($0))" }
            lines += ["Exec=app\(k) --new-window"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The best and median times of Python's `configparser` over the same files, in ms.
    private func pythonMilliseconds(_ directory: String) -> (best: Double, median: Double)? {
        let script = """
            import configparser, os, sys, time
            d = sys.argv[1]
            def scan():
                out = []
                for root, dirs, files in os.walk(d):
                    for f in files:
                        if not f.endswith('.desktop'):
                            continue
                        p = configparser.RawConfigParser(strict=False, interpolation=None)
                        p.optionxform = str
                        try:
                            with open(os.path.join(root, f), encoding='utf-8') as h:
                                p.read_file(h)
                        except Exception:
                            continue
                        e = p['Desktop Entry']
                        if e.get('Type') != 'Application' or e.get('NoDisplay') == 'true':
                            continue
                        name = e.get('Name[de_DE]') or e.get('Name[de]') or e.get('Name')
                        comment = e.get('Comment[de_DE]') or e.get('Comment[de]') or e.get('Comment')
                        out.append((name.lower(), name, comment, e.get('Icon'), e.get('Exec', '').split(),
                                    e.get('Categories', '').split(';')))
                out.sort()
                return out
            times = []
            for _ in range(\(Self.rounds)):
                t = time.perf_counter()
                scan()
                times.append(time.perf_counter() - t)
            times.sort()
            print(times[0] * 1000, times[len(times) // 2] * 1000)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let figures = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return figures.count == 2 ? (figures[0], figures[1]) : nil
    }
}
