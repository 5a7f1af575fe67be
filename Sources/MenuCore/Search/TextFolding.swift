/// How search compares text: without case, and with the Latin letters' accents
/// dropped, so that `e` finds `é` and `a` finds `Ä`. Each scalar folds to exactly
/// one scalar, so a match's positions in folded text are its positions in the text.
public enum TextFolding {
    /// The base letter of each of U+00C0 … U+024F (Latin-1 Supplement and Latin
    /// Extended-A and B), or `.` for a scalar that folds by case alone: the first
    /// scalar of its canonical decomposition when that is an ASCII letter, and a
    /// letter of the same sound for the few with none (`ß` → `s`, `ø` → `o`, `ł` →
    /// `l`, `ĳ` → `i`, `ŋ` → `n`, `ſ` → `s`). Made once with Python's `unicodedata.normalize("NFD", …)`; the standard
    /// library has no decomposition.
    private static let latin: [UInt8] = Array(
        ("aaaaaaaceeeeiiiidnooooo.ouuuuytsaaaaaaaceeeeiiiidnooooo.ouuuuytyaaaaaaccccccccdd"
            + "ddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkkllllllllllnnnnnnnnnoooooooorrrrrrssssss"
            + "ssttttttuuuuuuuuuuuuwwyyyzzzzzzsb.........................l.....oo.............u"
            + "u............................aaiioouuuuuuuuuu.aaaa....ggkkoooo..j...gg..nnaa...."
            + "aaaaeeeeiiiioooorrrruuuusstt..hh......aaeeooooooooyy............................").utf8)
    /// The same for U+1E00 … U+1EFF (Latin Extended Additional: Vietnamese, Welsh).
    private static let latinAdditional: [UInt8] = Array(
        ("aabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppp"
            + "rrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwy......aaaaaaaaaaaaaaaaaa"
            + "aaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy......").utf8)

    /// An ASCII byte folded: `A`–`Z` lowercased.
    @inline(__always) static func foldASCII(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

    /// The scalar `s` folds to.
    public static func fold(_ s: Unicode.Scalar) -> Unicode.Scalar {
        let v = s.value
        if v < 0x80 { return Unicode.Scalar(foldASCII(UInt8(v))) }
        if v >= 0xC0 && v <= 0x24F, case let b = latin[Int(v - 0xC0)], b != UInt8(ascii: ".") {
            return Unicode.Scalar(b)
        }
        if v >= 0x1E00 && v <= 0x1EFF, case let b = latinAdditional[Int(v - 0x1E00)], b != UInt8(ascii: ".") {
            return Unicode.Scalar(b)
        }
        let lower = s.properties.lowercaseMapping.unicodeScalars
        if lower.count == 1, let first = lower.first { return first }
        return s
    }

    /// Whether `s` is a combining mark (U+0300 … U+036F), which a query drops: `é`
    /// typed as `e` and a combining acute finds `e` as the precomposed one does.
    @inline(__always) static func isCombiningMark(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x300 && s.value <= 0x36F
    }

    /// Appends the folded UTF-8 of `text` to `bytes`. (No `reserveCapacity` here:
    /// it reserves exactly what it is asked, so called for each of many texts
    /// appended to one buffer it would copy the buffer each time.)
    public static func fold(_ text: String, into bytes: inout [UInt8]) {
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        if ascii {
            for b in text.utf8 { bytes.append(foldASCII(b)) }
            return
        }
        for s in text.unicodeScalars { bytes.append(contentsOf: UTF8.encode(fold(s))!) }
    }
}
