# `make` builds menud and menuctl for release, with their man pages and shell
# completions, into .build/dist; `make install` copies them, and the systemd user
# unit, under $(DESTDIR)$(PREFIX), and `make uninstall` removes those files again.
#
#   make install PREFIX=~/.local          for one user
#   make && sudo make install             for everyone, under /usr/local
#   make install DESTDIR=pkg PREFIX=/usr  for a package

PREFIX ?= /usr/local
# A `~` the shell left as it was (zsh does, in `PREFIX=~/.local`) is the home folder.
override PREFIX := $(patsubst ~%,$(HOME)%,$(PREFIX))
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
# share/, not lib/: systemd looks for user units in ~/.local/share/systemd/user but
# not in ~/.local/lib/systemd/user, and in /usr/local/share and /usr/share as well.
SYSTEMD_USER_UNIT_DIR ?= $(DATADIR)/systemd/user

SWIFT ?= swift
STRIP ?= strip
INSTALL ?= install

# The man pages carry the date of the last commit, so that a build is repeatable;
# without git, the generator's default (today).
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null)

# The release build of `swift build -c release` (menud and menuctl have the Swift
# runtime linked in there, Package.swift), and what is made from it.
RELEASE := .build/release
DIST := .build/dist
MANUALS := .build/plugins/GenerateManual/outputs

# .ci/sanitize sets it to link menuctl and menud dynamically; what is installed is
# always the static build.
unexport MENUD_DYNAMIC_MENUCTL

PROGRAMS := menud menuctl
INSTALLED := \
	$(addprefix $(BINDIR)/,$(PROGRAMS)) \
	$(addprefix $(MANDIR)/man1/,$(addsuffix .1,$(PROGRAMS))) \
	$(addprefix $(BASH_COMPLETION_DIR)/,$(PROGRAMS)) \
	$(addprefix $(ZSH_COMPLETION_DIR)/_,$(PROGRAMS)) \
	$(addprefix $(FISH_COMPLETION_DIR)/,$(addsuffix .fish,$(PROGRAMS))) \
	$(SYSTEMD_USER_UNIT_DIR)/menud.service

.PHONY: all install uninstall clean

# What the build reads: when none changed since the last build, `make install` does
# not call swift, so `make && sudo make install` works where root's PATH has none.
UNIT := contrib/systemd/menud.service
SOURCES := Package.swift Makefile $(shell find Sources -type f) $(UNIT)

all: $(DIST)/built

# The man pages come from swift-argument-parser's manual generator, through its
# plugin, which reads each program's --experimental-dump-help (the build is done by
# then, so the plugin's own release build has nothing left to do).
$(DIST)/built: $(SOURCES)
	$(SWIFT) build -c release
	$(SWIFT) package plugin generate-manual $(if $(MAN_DATE),--date $(MAN_DATE))
	rm -rf $(DIST)
	mkdir -p $(DIST)
	set -e; for p in $(PROGRAMS); do \
		cp $(RELEASE)/$$p $(DIST)/$$p; \
		$(STRIP) $(DIST)/$$p; \
		cp $(MANUALS)/$$p/$$p.1 $(DIST)/$$p.1; \
		$(RELEASE)/$$p --generate-completion-script bash > $(DIST)/$$p.bash; \
		$(RELEASE)/$$p --generate-completion-script zsh > $(DIST)/_$$p; \
		$(RELEASE)/$$p --generate-completion-script fish > $(DIST)/$$p.fish; \
	done
	@# The line install replaces.
	grep -qx 'ExecStart=%h/.local/bin/menud' $(UNIT)
	touch $@

# The unit is made here, from PREFIX as given to install.
install: all
	$(INSTALL) -d $(addprefix $(DESTDIR),$(sort $(dir $(INSTALLED))))
	$(INSTALL) -m 755 $(DIST)/menud $(DIST)/menuctl $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 644 $(DIST)/menud.1 $(DIST)/menuctl.1 $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(DIST)/menud.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/menud
	$(INSTALL) -m 644 $(DIST)/menuctl.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/menuctl
	$(INSTALL) -m 644 $(DIST)/_menud $(DIST)/_menuctl $(DESTDIR)$(ZSH_COMPLETION_DIR)
	$(INSTALL) -m 644 $(DIST)/menud.fish $(DIST)/menuctl.fish $(DESTDIR)$(FISH_COMPLETION_DIR)
	sed 's|^ExecStart=%h/.local/bin/menud$$|ExecStart=$(BINDIR)/menud|' $(UNIT) \
		> $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/menud.service
	chmod 644 $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/menud.service

# The files only: the folders may hold other programs' files.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf $(DIST)
