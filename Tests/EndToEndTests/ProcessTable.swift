import Foundation

/// The processes /proc lists: each entry's state, parent and process group, read
/// from `/proc/PID/stat`, whose second field (the command's name in parentheses)
/// may itself hold spaces and parentheses.
private func processStats() -> [(pid: Int32, state: Substring, parent: Int32, group: Int32)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { name in
        guard let pid = Int32(name),
            let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state, ppid, pgrp.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let parent = Int32(fields[1]), let group = Int32(fields[2]) else {
            return nil
        }
        return (pid, fields[0], parent, group)
    }
}

/// Children of `pid` that have exited but not been waited for.
func zombieChildren(of pid: Int32) -> [Int32] {
    processStats().filter { $0.state == "Z" && $0.parent == pid }.map(\.pid)
}

/// The processes of process group `group` that have not exited (a zombie waits
/// only for its reaper).
func livingProcesses(inGroup group: Int32) -> [Int32] {
    processStats().filter { $0.state != "Z" && $0.group == group }.map(\.pid)
}
