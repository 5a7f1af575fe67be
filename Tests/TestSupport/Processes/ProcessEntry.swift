import Foundation

/// One process as /proc lists it, from `/proc/PID/stat`: its name, state, parent,
/// process group and session. The name is the second field, in parentheses, and may
/// itself hold spaces and parentheses, so the fields after it are read from its last `)`.
public struct ProcessEntry {
    public let pid: Int32
    public let name: Substring
    public let state: Substring
    public let parent: Int32
    public let group: Int32
    public let session: Int32

    /// Exited and not yet waited for: it waits only for its reaper.
    public var isZombie: Bool { state == "Z" }

    /// Neither a zombie nor dead (`X`, seen only while it is being reaped).
    public var isLiving: Bool { !isZombie && state != "X" }

    /// Reads the text of a `/proc/PID/stat`; nil when it is not one.
    public init?(stat: String) {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
            let pid = Int32(stat[..<open].trimmingCharacters(in: .whitespaces))
        else { return nil }
        // After "pid (comm)": state, ppid, pgrp, session.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 3, let parent = Int32(fields[1]), let group = Int32(fields[2]),
            let session = Int32(fields[3])
        else { return nil }
        self.pid = pid
        name = stat[stat.index(after: open)..<close]
        state = fields[0]
        self.parent = parent
        self.group = group
        self.session = session
    }

    /// Every process there is now.
    public static func all() -> [ProcessEntry] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard Int32(entry) != nil,
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)
            else { return nil }
            return ProcessEntry(stat: stat)
        }
    }
}

/// The processes `pid` started, their children and so on, that have not exited.
public func livingDescendants(of pid: Int32) -> [ProcessEntry] {
    let all = ProcessEntry.all()
    let parents = Dictionary(all.map { ($0.pid, $0.parent) }, uniquingKeysWith: { first, _ in first })
    return all.filter { process in
        guard process.isLiving else { return false }
        var ancestor = process.parent
        // Bounded: a parent read as the table changes could make a cycle.
        for _ in 0..<all.count {
            if ancestor == pid { return true }
            guard let next = parents[ancestor], next != ancestor else { return false }
            ancestor = next
        }
        return false
    }
}

/// Children of `pid` that have exited but not been waited for.
public func zombieChildren(of pid: Int32) -> [Int32] {
    ProcessEntry.all().filter { $0.isZombie && $0.parent == pid }.map(\.pid)
}

/// The processes of process group `group` that have not exited.
public func livingProcesses(inGroup group: Int32) -> [Int32] {
    ProcessEntry.all().filter { $0.isLiving && $0.group == group }.map(\.pid)
}

/// How many descriptors `pid` holds open; -1 when it cannot be read.
public func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}
