import MenuCore

/// Replays splices the way a client applies them, taking inserted rows from the new
/// list. Returns nil when a splice reaches outside either list, so a broken splice
/// fails a test instead of crashing it.
func replay<Element>(_ splices: [Splice], on old: [Element], new: [Element]) -> [Element]? {
    var rows = old
    for s in splices {
        guard s.start + s.removed <= rows.count, s.start + s.inserted <= new.count else { return nil }
        rows.replaceSubrange(s.start..<(s.start + s.removed), with: new[s.start..<(s.start + s.inserted)])
    }
    return rows
}
