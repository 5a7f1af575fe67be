import MenuApplications
import Testing

/// `Exec` lines split by the Desktop Entry Specification's quoting rules, with their
/// field codes filled, into the arguments of a program that no shell reads.
@Suite struct DesktopExecTests {
    let fields = DesktopExec.Fields(
        name: "Text Editor", icon: "accessories-text-editor", file: "/a/b.desktop")

    func arguments(_ exec: String) throws -> [String] { try DesktopExec.arguments(exec, fields) }

    @Test func splitsOnSpaces() throws {
        #expect(try arguments("gedit --new-window") == ["gedit", "--new-window"])
        #expect(try arguments("  gedit   a  ") == ["gedit", "a"])
    }

    @Test func quotedArgumentsKeepSpacesAndUndoTheirEscapes() throws {
        #expect(
            try arguments(#"sh -c "echo \"hi\" \$HOME \`x\` \\""#) == ["sh", "-c", #"echo "hi" $HOME `x` \"#])
        #expect(try arguments(#""/opt/My App/run" "a b""#) == ["/opt/My App/run", "a b"])
        #expect(try arguments(#"prog """#) == ["prog", ""])
        // Quoted and unquoted text in one argument are one argument.
        #expect(try arguments(#"prog --title="A B""#) == ["prog", "--title=A B"])
    }

    @Test func aBackslashBeforeAnotherCharacterInQuotesIsKept() throws {
        #expect(try arguments(#"prog "a\nb""#) == ["prog", #"a\nb"#])
    }

    /// A NUL would end the argument the program gets, short of what the log shows:
    /// the entry is refused, whether the NUL is written or comes from a field code.
    @Test func aNulAnywhereRefusesTheEntry() {
        #expect(
            throws: DesktopExec.Invalid(
                description: "Exec holds a NUL character, which no argument can carry")
        ) {
            try arguments("rm -rf /tmp/a\u{0}b")
        }
        let nulName = DesktopExec.Fields(name: "Evil\u{0}Name", icon: nil, file: "/a/b.desktop")
        #expect(throws: DesktopExec.Invalid.self) { try DesktopExec.arguments("prog %c", nulName) }
    }

    @Test func shellSyntaxIsText() throws {
        #expect(
            try arguments("prog $(touch /tmp/x) ; rm -rf / | cat") == [
                "prog", "$(touch", "/tmp/x)", ";", "rm", "-rf", "/", "|", "cat",
            ])
    }

    @Test func fileAndURLCodesAreDropped() throws {
        #expect(try arguments("firefox %u") == ["firefox"])
        #expect(try arguments("gimp %F --x %U %f") == ["gimp", "--x"])
        #expect(try arguments("prog --file=%f") == ["prog", "--file="])
    }

    @Test func deprecatedCodesAreDropped() throws {
        #expect(try arguments("prog %d %D %n %N %v %m a") == ["prog", "a"])
    }

    @Test func iconNameAndFileAreFilled() throws {
        #expect(try arguments("prog %i") == ["prog", "--icon", "accessories-text-editor"])
        #expect(try arguments("prog --name=%c %k") == ["prog", "--name=Text Editor", "/a/b.desktop"])
        #expect(try arguments("prog %c") == ["prog", "Text Editor"])
        let iconless = DesktopExec.Fields(name: "N", icon: nil, file: "/f")
        #expect(try DesktopExec.arguments("prog %i x", iconless) == ["prog", "x"])
    }

    @Test func percentPercentIsAPercent() throws {
        #expect(try arguments("printf 100%%") == ["printf", "100%"])
        #expect(try arguments(#"printf "%%s""#) == ["printf", "%s"])
    }

    @Test func badLinesAreRefused() {
        #expect(throws: DesktopExec.Invalid.self) { try arguments("prog %z") }
        #expect(throws: DesktopExec.Invalid.self) { try arguments("prog 5%") }
        #expect(throws: DesktopExec.Invalid.self) { try arguments(#"prog "unterminated"#) }
        #expect(throws: DesktopExec.Invalid.self) { try arguments("   ") }
        #expect(throws: DesktopExec.Invalid.self) { try arguments("%f") }
    }

    @Test func shownArgumentsAreQuotedForReading() {
        #expect(DesktopExec.shown(["prog", "a b", "it's", "$(x)"]) == #"prog 'a b' 'it'\''s' '$(x)'"#)
    }
}
