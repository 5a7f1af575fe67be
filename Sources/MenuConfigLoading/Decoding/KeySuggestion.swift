/// Turns an unknown key into a message that points at the key the user most likely
/// meant, because a typo in a key is the commonest config mistake.
enum KeySuggestion {
    static func unknownKey(_ key: String, known: [String]) -> String {
        unknownKey(key, known: known, near: nearest(to: key, in: known))
    }

    /// The message when ``nearest(to:in:)`` was already asked and said `near`.
    static func unknownKey(_ key: String, known: [String], near: String?) -> String {
        let clipped = YAMLEvent.clip(key)
        if let near {
            return "unknown key '\(clipped)' (did you mean '\(near)'?)"
        }
        return "unknown key '\(clipped)' (known keys: \(known.joined(separator: ", ")))"
    }

    /// The closest candidate within two edits (a swap of neighbours counts as one),
    /// or nil when nothing is close enough to be a plausible typo.
    static func nearest(to key: String, in candidates: [String]) -> String? {
        let a = Array(key.lowercased().utf8)
        guard a.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(a, Array(candidate.utf8))
            if d <= 2, d < max(a.count, 2), best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance.
    private static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var d = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in 0...a.count { d[i * width] = i }
        for j in 0...b.count { d[j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(
                    d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1, d[(i - 1) * width + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    v = min(v, d[(i - 2) * width + j - 2] + 1)
                }
                d[i * width + j] = v
            }
        }
        return d[a.count * width + b.count]
    }
}
