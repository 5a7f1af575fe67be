import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Why a node is stale, on the line after it in `get` and `row`: `stale since
/// 2026-11-28 16:47:25: wpctl: not found`, the time in the local zone; `stale: not
/// read yet` before its source has answered.
enum StaleLine {
    static func text(_ row: RowRecord) -> String {
        guard !row.staleReason.isEmpty else { return "stale: not read yet" }
        let since = row.staleSince.isEmpty ? "" : " since " + localTime(row.staleSince)
        return "stale\(since): " + InertText.oneLine(row.staleReason)
    }

    /// `2026-11-28T15:47:25Z` in the local zone, as `2026-11-28 16:47:25`; the text
    /// as it is when it is no such time.
    static func localTime(_ utc: String) -> String {
        let digits = utc.split(whereSeparator: { !$0.isNumber }).compactMap { Int32($0) }
        guard utc.utf8.count == 20, utc.hasSuffix("Z"), digits.count == 6 else {
            return InertText.oneLine(utc)
        }
        var parts = tm()
        parts.tm_year = digits[0] - 1900
        parts.tm_mon = digits[1] - 1
        parts.tm_mday = digits[2]
        parts.tm_hour = digits[3]
        parts.tm_min = digits[4]
        parts.tm_sec = digits[5]
        var seconds = timegm(&parts)
        var local = tm()
        localtime_r(&seconds, &local)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &local)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
