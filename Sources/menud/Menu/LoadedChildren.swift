import MenuCore

#if canImport(Glibc)
    import Glibc
#endif

/// What a `children-cmd` group's command last printed, as the group shows it, until
/// the group is closed.
struct LoadedChildren: Sendable {
    /// The command that printed them: a reload keeps them only for the same command.
    var command: String
    /// What the group shows: the command's nodes, or an error row; after a failed
    /// refresh, the last nodes that loaded and an error row.
    var children: [NodeSpec]
    /// The last output that loaded, with its nodes and when it came (seconds on the
    /// wall clock): what a failed refresh keeps showing. Nil while the command has
    /// only failed.
    var good: (output: [UInt8], nodes: [NodeSpec], at: time_t)?
    /// Whether the command's last run failed, so that the group shows an error row.
    var failed: Bool
    /// When the command last ended, loaded or not: a group that refreshes runs it
    /// again one interval after.
    var ended: ContinuousClock.Instant

    /// The command's output read as `nodes`, just now.
    init(command: String, loaded nodes: [NodeSpec], from output: [UInt8]) {
        self.command = command
        children = nodes
        good = (output, nodes, time(nil))
        failed = false
        ended = .now
    }

    /// The command failed on its first run: the group shows why, and nothing else.
    init(command: String, failed reason: String) {
        self.command = command
        children = [.errorRow(reason)]
        good = nil
        failed = true
        ended = .now
    }

    /// Whether the group shows what `output` reads as: the last output that loaded,
    /// with no error row after it.
    func shows(_ output: [UInt8]) -> Bool {
        !failed && good?.output == output
    }

    /// A refresh failed for `reason`: the last nodes that loaded stay, followed by an
    /// error row that says why and when they came (the local time of day).
    mutating func refreshFailed(_ reason: String) {
        ended = .now
        failed = true
        guard let good else {
            children = [.errorRow(reason)]
            return
        }
        children = NodeSpec.appendingErrorRow(
            "\(reason) (last loaded at \(Self.timeOfDay(good.at)))", to: good.nodes)
    }

    /// `HH:MM:SS` of `time` in the local time zone.
    static func timeOfDay(_ time: time_t) -> String {
        var time = time
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
