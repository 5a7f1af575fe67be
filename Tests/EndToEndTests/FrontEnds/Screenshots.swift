import Foundation

/// Where a test's screenshots go besides its own directory: when `MENUD_SCREENSHOTS`
/// names a directory they are copied there (that is how docs/img is made).
enum Screenshots {
    static func keep(_ path: String, as name: String) throws {
        guard let keep = ProcessInfo.processInfo.environment["MENUD_SCREENSHOTS"] else { return }
        let target = URL(fileURLWithPath: keep).appendingPathComponent(name + ".png")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(atPath: path, toPath: target.path)
    }
}
