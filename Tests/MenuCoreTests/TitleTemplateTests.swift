import Testing

@testable import MenuCore

/// `TitleTemplate(parsing:)` reads ASCII text byte by byte and other text by
/// `Character`; both readings must agree wherever both apply.
@Suite struct TitleTemplateTests {
    /// Every string of up to six characters over braces, a letter and a slash, and
    /// the placeholder names in braces: doubled, unclosed, nested and empty braces.
    @Test func asciiReadingAgreesWithCharacterReading() {
        var texts = [""]
        var level = [""]
        for _ in 0..<6 {
            level = level.flatMap { prefix in ["{", "}", "a", "/"].map { prefix + $0 } }
            texts += level
        }
        for name in ["value", "title", "a/b"] {
            texts += ["{\(name)}", "x {\(name)} y", "{{\(name)}}", "{\(name)", "{\(name)}}", "{{{\(name)}}}"]
        }
        for text in texts {
            #expect(TitleTemplate(parsing: text) == TitleTemplate(parsingCharacters: text), "\(text)")
        }
    }

    @Test func readsPlaceholdersAndEscapes() {
        #expect(
            TitleTemplate(parsing: "Vol {value}% of {a/b} {{x}} {title}").segments == [
                .literal("Vol "), .ownValue, .literal("% of "), .reference("a/b"), .literal(" {x} "),
                .ownTitle,
            ])
        #expect(TitleTemplate(parsing: "open { only").segments == [.literal("open { only")])
    }

    @Test func nonASCIITextIsReadByCharacter() {
        #expect(
            TitleTemplate(parsing: "Café {value}").segments == [.literal("Café "), .ownValue])
        // A combining mark joins the brace into one character, which is then no brace.
        #expect(TitleTemplate(parsing: "{\u{301}value}").segments == [.literal("{\u{301}value}")])
    }
}
