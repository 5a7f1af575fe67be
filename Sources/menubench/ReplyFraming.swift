/// Where a server's replies end, so the load generator can count them without
/// parsing a protocol in full. One per connection: a redis bulk reply spans two lines.
struct ReplyFraming {
    /// The servers the generator speaks to.
    enum Dialect: String, CaseIterable {
        /// menud and the floors: a reply ends with a line `OK` or `ERR …`; the
        /// greeting `OK MENUD 1` is none of those.
        case menud
        /// mpd: a reply ends with a line `OK` or `ACK …`; the greeting `OK MPD x.y.z`
        /// is none of those.
        case mpd
        /// redis inline commands: a reply is one `+`, `-` or `:` line, or a `$N` line
        /// and the payload line after it (`$-1` alone for a missing key).
        case redis
    }

    enum End {
        case ok
        case error
    }

    let dialect: Dialect
    /// A redis `$N` header was read: the next line is its payload and ends the reply.
    private var payloadNext = false

    init(_ dialect: Dialect) {
        self.dialect = dialect
    }

    /// The end of a reply that `line` (without its line terminator) makes, if any.
    mutating func end(at line: ArraySlice<UInt8>) -> End? {
        switch dialect {
        case .menud:
            if line.elementsEqual("OK".utf8) { return .ok }
            return line.starts(with: "ERR ".utf8) ? .error : nil
        case .mpd:
            if line.elementsEqual("OK".utf8) { return .ok }
            return line.starts(with: "ACK ".utf8) ? .error : nil
        case .redis:
            if payloadNext {
                payloadNext = false
                return .ok
            }
            switch line.first {
            case UInt8(ascii: "+"), UInt8(ascii: ":"): return .ok
            case UInt8(ascii: "-"): return .error
            case UInt8(ascii: "$"):
                if line.elementsEqual("$-1".utf8) { return .ok }
                payloadNext = true
                return nil
            default: return nil
            }
        }
    }
}
