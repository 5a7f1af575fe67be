import Testing

@testable import menud

/// Menu text in a tray is data: no markup, no stray mnemonic, one line.
@Suite struct TrayLabelTests {
    @Test func underscoresAreLiteralAndTheKeyIsTheMnemonic() {
        #expect(TrayLabel.menuLabel("snake_case") == "snake__case")
        #expect(TrayLabel.menuLabel("Wi-Fi", mnemonic: "w") == "_Wi-Fi")
        #expect(TrayLabel.menuLabel("Power off", mnemonic: "o") == "P_ower off")
        // Compared as keys are: without case or accent.
        #expect(TrayLabel.menuLabel("Éclair", mnemonic: "e") == "_Éclair")
        // A key that is no letter of the title follows it.
        #expect(TrayLabel.menuLabel("Lock", mnemonic: "x") == "Lock (_X)")
        #expect(TrayLabel.menuLabel("a_b", mnemonic: "b") == "a___b")
    }

    @Test func controlCharactersAreSpacesAndMarkupIsText() {
        #expect(TrayLabel.menuLabel("a\nb\u{1B}[31mc\u{7}") == "a b [31mc ")
        #expect(TrayLabel.tooltip("<b>&x</b>\n") == "&lt;b&gt;&amp;x&lt;/b&gt; ")
        #expect(TrayLabel.plain("one\u{2028}two\ttab") == "one two tab")
        #expect(TrayLabel.plain("<i>kept</i>") == "<i>kept</i>")
    }
}
