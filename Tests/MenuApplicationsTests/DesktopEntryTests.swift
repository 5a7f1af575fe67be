import MenuApplications
import Testing

/// Reading one desktop entry: the keys the menu uses, and what makes a file unreadable.
@Suite struct DesktopEntryTests {
    @Test func readsWhatTheMenuUses() throws {
        let entry = try Fixture.entry(
            """
            # a comment
            [Desktop Entry]
            Version=1.5
            Type=Application
            Name=Web Browser
            GenericName=Browser
            Comment=Browse the web
            Icon=firefox
            Exec=firefox %u
            TryExec=firefox
            Terminal=false
            Categories=Network;WebBrowser;
            Actions=new-window;private;missing;
            DBusActivatable=true
            Keywords=web;internet;
            [Desktop Action new-window]
            Name=New Window
            Exec=firefox --new-window
            [Desktop Action private]
            Name=New Private Window
            Icon=private
            Exec=firefox --private-window %u
            [Other Group]
            Name=not this
            """)
        #expect(entry.type == "Application")
        #expect(entry.name == "Web Browser")
        #expect(entry.genericName == "Browser")
        #expect(entry.comment == "Browse the web")
        #expect(entry.icon == "firefox")
        #expect(entry.arguments == ["firefox"])
        #expect(entry.tryExec == "firefox")
        #expect(entry.categories == ["Network", "WebBrowser"])
        #expect(entry.dbusActivatable)
        #expect(entry.busName == "app")
        #expect(
            entry.actions == [
                DesktopEntry.Action(
                    id: "new-window", name: "New Window", icon: nil, arguments: ["firefox", "--new-window"]),
                DesktopEntry.Action(
                    id: "private", name: "New Private Window", icon: "private",
                    arguments: ["firefox", "--private-window"]),
            ])
    }

    @Test func stringEscapesAreUndoneBeforeQuoting() throws {
        // `\\\\` in the file is one backslash in the argument; `\s` a space.
        let entry = try Fixture.entry(Fixture.application("A\\sB", exec: #"prog "a\\\\b" \\$x"#))
        #expect(entry.name == "A B")
        #expect(entry.arguments == ["prog", #"a\b"#, "$x"])
    }

    @Test func flagsAndLists() throws {
        let entry = try Fixture.entry(
            Fixture.application(
                "T", ["Terminal=true", "OnlyShowIn=GNOME;KDE;", #"NotShowIn=X\;Y;"#, "NoDisplay=false"]))
        #expect(entry.terminal)
        #expect(entry.onlyShowIn == ["GNOME", "KDE"])
        #expect(entry.notShowIn == ["X;Y"])
        #expect(!entry.noDisplay)
    }

    @Test func bracesAndShellSyntaxAreText() throws {
        let entry = try Fixture.entry(
            Fixture.application("{value} $(touch x)", exec: "prog {a/b} $(touch x)", ["Comment=}{{"]))
        #expect(entry.name == "{value} $(touch x)")
        #expect(entry.comment == "}{{")
        #expect(entry.arguments == ["prog", "{a/b}", "$(touch", "x)"])
    }

    @Test func crlfLinesAndSpacesAroundTheEqualsSign() throws {
        let entry = try Fixture.entry(
            "[Desktop Entry]\r\nType = Application\r\nName= Spaced\r\nExec =prog\r\n")
        #expect(entry.name == "Spaced")
        #expect(entry.arguments == ["prog"])
    }

    @Test(arguments: [
        (
            "[Desktop Entry]\nType=Application\nName=A\nExec=a\nthis line is nothing\n",
            "line 5: neither a key, a group nor a comment"
        ),
        ("Name=A\n[Desktop Entry]\n", "line 1: a key before the first group"),
        ("[Desktop Entry\nName=A\n", "line 1: a group header without its ']'"),
        (
            "[Desktop Entry]\nType=Application\nName=A\nExec=a\n[Desktop Entry]\n",
            "line 5: a second [Desktop Entry] group"
        ),
        ("[Other]\nName=A\n", "no [Desktop Entry] group"),
        ("[Desktop Entry]\nName=A\nExec=a\n", "no Type"),
        ("[Desktop Entry]\nType=Application\nExec=a\n", "no Name"),
        ("[Desktop Entry]\nType=Application\nName=A\n", "no Exec"),
        ("[Desktop Entry]\nType=Application\nName=A\nExec=a %x\n", "Exec has an unknown field code '%x'"),
        ("[Desktop Entry]\nType=Application\nName=A\nExec=\"a\n", "Exec has an unterminated quote"),
    ])
    func malformedFilesSayWhy(_ text: String, _ why: String) {
        #expect(throws: DesktopEntry.Unreadable(description: why)) { try Fixture.entry(text) }
    }

    @Test func invalidUTF8IsRefused() {
        let bytes =
            Array("[Desktop Entry]\nType=Application\nName=".utf8) + [0xff, 0xfe] + Array("\nExec=a\n".utf8)
        #expect(throws: DesktopEntry.Unreadable(description: "not UTF-8")) { try Fixture.bytes(bytes) }
    }

    @Test func anEntryNeedsNoExecWhenActivatedOverDBusOrNotShown() throws {
        #expect(
            try Fixture.entry("[Desktop Entry]\nType=Application\nName=A\nDBusActivatable=true\n").arguments
                == [])
        #expect(try Fixture.entry("[Desktop Entry]\nType=Application\nName=A\nNoDisplay=true\n").noDisplay)
        #expect(
            try Fixture.entry("[Desktop Entry]\nType=Link\nName=A\nURL=https://example.org\n").type == "Link")
    }

    /// An action whose `Exec` cannot be read, or that has none while the application
    /// starts from its own, is left out; the others stay. `%i` in an action is the
    /// action's icon, else the application's.
    @Test func anActionThatCannotStartIsLeftOut() throws {
        let entry = try Fixture.entry(
            Fixture.application("A", ["Icon=app", "Actions=bad;none;good;plain;"])
                + "[Desktop Action bad]\nName=Bad\nExec=prog %z\n"
                + "[Desktop Action none]\nName=None\n"
                + "[Desktop Action good]\nName=Good\nIcon=good\nExec=prog --good %i\n"
                + "[Desktop Action plain]\nName=Plain\nExec=prog %i\n")
        #expect(
            entry.actions == [
                DesktopEntry.Action(
                    id: "good", name: "Good", icon: "good", arguments: ["prog", "--good", "--icon", "good"]),
                DesktopEntry.Action(
                    id: "plain", name: "Plain", icon: nil, arguments: ["prog", "--icon", "app"]),
            ])
        // Activated over D-Bus, an action needs no Exec.
        let bus = try Fixture.entry(
            Fixture.application("B", ["DBusActivatable=true", "Actions=none;"])
                + "[Desktop Action none]\nName=None\n")
        #expect(bus.actions == [DesktopEntry.Action(id: "none", name: "None", icon: nil, arguments: [])])
    }

    @Test func filtering() throws {
        let environment = Fixture.environment([], desktops: ["sway", "wlroots"], path: ["/usr/bin", "/bin"])
        func shown(_ extra: [String], type: String = "Application") throws -> Bool {
            var text = Fixture.application("A", extra)
            text = text.replacingOccurrences(of: "Type=Application", with: "Type=\(type)")
            return ApplicationScan.isShown(try Fixture.entry(text), environment)
        }
        #expect(try shown([]))
        #expect(try !shown(["NoDisplay=true"]))
        #expect(try !shown(["Hidden=true"]))
        #expect(try !shown([], type: "Link"))
        #expect(try shown(["OnlyShowIn=GNOME;wlroots;"]))
        #expect(try !shown(["OnlyShowIn=GNOME;KDE;"]))
        #expect(try !shown(["NotShowIn=sway;"]))
        #expect(try shown(["NotShowIn=GNOME;"]))
        #expect(try shown(["TryExec=sh"]))
        #expect(try shown(["TryExec=/bin/sh"]))
        #expect(try !shown(["TryExec=no-such-program-anywhere"]))
        #expect(try !shown(["TryExec=/no/such/program"]))
        // Not executable.
        #expect(try !shown(["TryExec=/etc/passwd"]))
        let nowhere = Fixture.environment([], desktops: [])
        #expect(
            !ApplicationScan.isShown(
                try Fixture.entry(Fixture.application("A", ["OnlyShowIn=GNOME;"])), nowhere))
    }
}
