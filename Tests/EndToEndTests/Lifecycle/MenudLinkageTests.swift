import Foundation
import TestSupport
import Testing

/// menud does not link Foundation: loading it was most of the daemon's
/// start-up, 10 ms for `menud --check` on a one-node file against 1 ms for a C
/// program. The one Foundation library left is FoundationEssentials, which
/// swift-argument-parser 1.8.2 imports on Linux (Utilities/Foundation.swift) for its
/// `--experimental-dump-help` JSON and for `LocalizedError` in error messages; no
/// version or trait of it goes without. So the check is on the built binary, where
/// a dependency's import shows as well as one of menud's own.
@Suite(.ownThread) struct MenudLinkageTests {
    /// What ArgumentParser takes from FoundationEssentials, as parts of mangled names:
    /// `JSONEncoder` and its options, `LocalizedError`, `String(data:encoding:)` and
    /// `String.Encoding.utf8`.
    static let argumentParserUses = [
        "20FoundationEssentials11JSONEncoderC", "20FoundationEssentials14LocalizedErrorM",
        "SS20FoundationEssentialsE4data8encoding", "SS20FoundationEssentialsE8EncodingV4utf8",
    ]

    @Test func menudNeedsNoFoundationLibraryButArgumentParsers() throws {
        let dynamic = try run("/usr/bin/env", ["readelf", "--dynamic", "--wide", TestPaths.menud])
        try #require(dynamic.status == 0, "readelf: \(dynamic.stderr)")
        let needed = dynamic.stdout.split(separator: "\n").compactMap { line -> Substring? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["),
                let close = line.lastIndex(of: "]")
            else { return nil }
            return line[line.index(after: open)..<close]
        }
        if needed.isEmpty {
            // A static menud (a release build, say) has no libraries to list: it holds
            // what it uses, so Foundation shows as its module's symbols.
            try checkStaticSymbols()
            return
        }
        #expect(needed.contains { $0.hasPrefix("libswiftCore") }, "readelf listed: \(needed)")
        let foundation = needed.filter { $0.contains("Foundation") && $0 != "libFoundationEssentials.so" }
        #expect(foundation.isEmpty, "menud needs \(foundation)")

        let symbols = try run("/usr/bin/env", ["readelf", "--dyn-syms", "--wide", TestPaths.menud])
        try #require(symbols.status == 0, "readelf: \(symbols.stderr)")
        let undefined = symbols.stdout.split(separator: "\n").compactMap { line -> Substring? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 8 && fields[6] == "UND" ? fields[7] : nil
        }
        #expect(undefined.count > 100, "readelf listed \(undefined.count) undefined symbols")
        let fromEssentials = undefined.filter { $0.contains("FoundationEssentials") }
        let unexpected = fromEssentials.filter { symbol in
            !Self.argumentParserUses.contains { symbol.contains($0) }
        }
        #expect(
            unexpected.isEmpty,
            "menud uses FoundationEssentials beyond ArgumentParser's needs (`swift demangle` them): \(unexpected)"
        )
    }

    /// In a static binary, any symbol of the Foundation or
    /// FoundationInternationalization modules means Foundation came back.
    private func checkStaticSymbols() throws {
        let listed = try run("/usr/bin/env", ["nm", "--defined-only", TestPaths.menud])
        try #require(listed.status == 0, "nm: \(listed.stderr)")
        let names = listed.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last }
        #expect(names.contains { $0.hasPrefix("$s8MenuCore") }, "nm listed \(names.count) symbols")
        let foundation = names.filter {
            $0.hasPrefix("$s10Foundation") || $0.contains("30FoundationInternationalization")
        }
        #expect(foundation.isEmpty, "menud holds Foundation: \(foundation.prefix(10))")
    }
}
