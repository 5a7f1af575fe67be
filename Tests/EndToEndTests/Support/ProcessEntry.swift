import Foundation

/// One process as /proc lists it, from `/proc/PID/stat`: its name, state, parent and
/// process group. The name is the second field, in parentheses, and may itself hold
/// spaces and parentheses, so the fields after it are read from its last `)`.
struct ProcessEntry {
    let pid: Int32
    let name: Substring
    let state: Substring
    let parent: Int32
    let group: Int32

    /// Exited and not yet waited for: it waits only for its reaper.
    var isZombie: Bool { state == "Z" }

    /// Every process there is now.
    static func all() -> [ProcessEntry] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, let parent = Int32(fields[1]), let group = Int32(fields[2]) else {
                return nil
            }
            return ProcessEntry(
                pid: pid, name: stat[stat.index(after: open)..<close], state: fields[0], parent: parent,
                group: group)
        }
    }
}

/// Children of `pid` that have exited but not been waited for.
func zombieChildren(of pid: Int32) -> [Int32] {
    ProcessEntry.all().filter { $0.isZombie && $0.parent == pid }.map(\.pid)
}

/// The processes of process group `group` that have not exited.
func livingProcesses(inGroup group: Int32) -> [Int32] {
    ProcessEntry.all().filter { !$0.isZombie && $0.group == group }.map(\.pid)
}

/// How many descriptors `pid` holds open; -1 when it cannot be read.
func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}
