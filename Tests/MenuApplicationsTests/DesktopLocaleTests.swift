import MenuApplications
import Testing

/// The locale's translations, matched as the Desktop Entry Specification says.
@Suite struct DesktopLocaleTests {
    @Test func candidatesGoFromTheMostToTheLeastSpecific() {
        #expect(DesktopLocale("sr_YU.UTF-8@Latn").candidates == ["sr_YU@Latn", "sr_YU", "sr@Latn", "sr"])
        #expect(DesktopLocale("de_DE.UTF-8").candidates == ["de_DE", "de"])
        #expect(DesktopLocale("de@euro").candidates == ["de@euro", "de"])
        #expect(DesktopLocale("fr").candidates == ["fr"])
        #expect(DesktopLocale("C").candidates == [])
        #expect(DesktopLocale("C.UTF-8").candidates == [])
        #expect(DesktopLocale("POSIX").candidates == [])
        #expect(DesktopLocale(nil).candidates == [])
    }

    @Test func lcAllComesFirstThenLCMessagesThenLang() {
        #expect(
            DesktopLocale(environment: ["LANG": "de_DE", "LC_MESSAGES": "fr_FR", "LC_ALL": "it_IT"])
                .candidates.first == "it_IT")
        #expect(
            DesktopLocale(environment: ["LANG": "de_DE", "LC_MESSAGES": "fr_FR"]).candidates.first == "fr_FR")
        #expect(DesktopLocale(environment: ["LANG": "de_DE", "LC_ALL": ""]).candidates.first == "de_DE")
    }

    func name(_ lines: [String], locale: String?) throws -> String {
        let text = (["[Desktop Entry]", "Type=Application", "Exec=prog"] + lines).joined(separator: "\n")
        return try Fixture.entry(text, locale: DesktopLocale(locale)).name
    }

    @Test func theBestTranslationWinsWhateverTheOrder() throws {
        let lines = ["Name[sr@Latn]=lang@mod", "Name=default", "Name[sr_YU]=lang_COUNTRY", "Name[sr]=lang"]
        #expect(try name(lines, locale: "sr_YU@Latn") == "lang_COUNTRY")
        #expect(try name(lines + ["Name[sr_YU@Latn]=all"], locale: "sr_YU@Latn") == "all")
        #expect(try name(lines, locale: "sr_CS@Latn") == "lang@mod")
        #expect(try name(lines, locale: "sr_CS") == "lang")
        #expect(try name(lines, locale: "de_DE") == "default")
        #expect(try name(lines, locale: nil) == "default")
    }

    @Test func genericNameAndCommentAreTranslatedToo() throws {
        let text = """
            [Desktop Entry]
            Type=Application
            Exec=prog
            Name=Files
            GenericName=File Manager
            GenericName[de]=Dateimanager
            Comment=Browse files
            Comment[de]=Dateien durchsuchen
            """
        let entry = try Fixture.entry(text, locale: DesktopLocale("de_AT.UTF-8"))
        #expect(entry.genericName == "Dateimanager")
        #expect(entry.comment == "Dateien durchsuchen")
    }

    @Test func keywordsAreAListTranslatedLikeTheName() throws {
        let text = """
            [Desktop Entry]
            Type=Application
            Exec=prog
            Name=Files
            Keywords=folder;manager;explore;
            Keywords[de]=Ordner;Verwaltung;
            """
        #expect(
            try Fixture.entry(text, locale: DesktopLocale("de_AT.UTF-8")).keywords == [
                "Ordner", "Verwaltung",
            ])
        #expect(
            try Fixture.entry(text, locale: DesktopLocale(nil)).keywords == ["folder", "manager", "explore"])
    }

    @Test func theIconIsTranslatedLikeTheName() throws {
        let text = """
            [Desktop Entry]
            Type=Application
            Exec=prog
            Name=Files
            Icon[de_AT]=ordner-at
            Icon=folder
            Icon[de]=ordner
            Icon[fr]=dossier
            """
        #expect(try Fixture.entry(text, locale: DesktopLocale("de_AT.UTF-8")).icon == "ordner-at")
        #expect(try Fixture.entry(text, locale: DesktopLocale("de_CH.UTF-8")).icon == "ordner")
        #expect(try Fixture.entry(text, locale: DesktopLocale("it_IT.UTF-8")).icon == "folder")
    }
}
