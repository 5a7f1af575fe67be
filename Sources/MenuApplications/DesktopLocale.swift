#if canImport(Glibc)
    import Glibc
#endif

/// Which translations of a `localestring` (`Name[de_DE]=…`) a user reads, from
/// `LC_ALL`, else `LC_MESSAGES`, else `LANG`, as the Desktop Entry Specification
/// matches them: `lang_COUNTRY@MODIFIER`, then `lang_COUNTRY`, then `lang@MODIFIER`,
/// then `lang`, then the key without a locale. The encoding (`.UTF-8`) plays no
/// part.
public struct DesktopLocale: Sendable, Equatable {
    /// The locale suffixes that match, best first.
    public let candidates: [String]
    /// The same as bytes, compared with every translated key of every entry.
    private let candidateBytes: [[UInt8]]
    /// What every candidate starts with (the language's first letter), and the
    /// longest: most translations are of other languages, told apart by these
    /// without looking at the candidates.
    private let first: UInt8
    private let longest: Int

    /// The locale of `value`, a locale variable's text (`de_DE.UTF-8@euro`). `C`,
    /// `POSIX` and nothing match no translation.
    public init(_ value: String?) {
        guard let value, !value.isEmpty, value != "C", value != "POSIX", !value.hasPrefix("C.") else {
            candidates = []
            candidateBytes = []
            first = 0
            longest = 0
            return
        }
        var rest = Substring(value)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        var country: Substring?
        if let underscore = rest.firstIndex(of: "_") {
            country = rest[rest.index(after: underscore)...]
            rest = rest[..<underscore]
        }
        let lang = String(rest)
        guard !lang.isEmpty else {
            candidates = []
            candidateBytes = []
            first = 0
            longest = 0
            return
        }
        var out: [String] = []
        if let country, let modifier { out.append("\(lang)_\(country)@\(modifier)") }
        if let country { out.append("\(lang)_\(country)") }
        if let modifier { out.append("\(lang)@\(modifier)") }
        out.append(lang)
        candidates = out
        candidateBytes = out.map { Array($0.utf8) }
        first = lang.utf8.first ?? 0
        longest = candidateBytes.map(\.count).max() ?? 0
    }

    /// The locale a process with `environment` reads messages in.
    public init(environment: [String: String]) {
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first {
            !$0.isEmpty
        }
        self.init(value)
    }

    /// How well a key's locale suffix matches: 0 is best; ``unlocalized`` for the key
    /// without one, and nil for a locale that does not match at all.
    func rank(_ suffix: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let start = suffix.first, start == first, suffix.count <= longest else { return nil }
        var k = 0
        while k < candidateBytes.count {
            let found = candidateBytes[k].withUnsafeBufferPointer { candidate in
                candidate.count == suffix.count
                    && (suffix.isEmpty
                        || memcmp(candidate.baseAddress!, suffix.baseAddress!, suffix.count) == 0)
            }
            if found { return k }
            k += 1
        }
        return nil
    }

    /// The rank of a key without a locale: worse than any match.
    var unlocalized: Int { candidates.count }
}
