# `make` builds menud, menuctl and the popup, menud-popup, for release, with their
# man pages and shell completions, into .build/dist; `make install` copies them, the
# systemd user unit, the docs and the example config under $(DESTDIR)$(PREFIX), and
# `make uninstall` removes those files again. `make install-menud` and
# `make install-popup` install one part each: menud's (the daemon, menuctl, the
# config's page, the docs and the unit) and the popup's, which alone links GTK.
#
#   make install PREFIX=~/.local          for one user
#   make && sudo make install             for everyone, under /usr/local
#   make install DESTDIR=pkg PREFIX=/usr  for a package
#
# `make deb` packages the same files as two Debian packages, one per part:
# menud_VERSION_ARCH.deb and menud-popup_VERSION_ARCH.deb, which depends on it.

PREFIX ?= /usr/local
# A `~` the shell left as it was (zsh does, in `PREFIX=~/.local`) is the home folder.
override PREFIX := $(patsubst ~%,$(HOME)%,$(PREFIX))
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# The docs the man pages point to, and the example config.
DOCDIR ?= $(DATADIR)/doc/menud
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

# The release build of `swift build -c release` (menud, menuctl and menud-popup have
# the Swift runtime linked in there, Package.swift), and what is made from it.
RELEASE := .build/release
DIST := .build/dist
MANUALS := .build/plugins/GenerateManual/outputs

# .ci/sanitize sets it to link the programs to the Swift runtime dynamically; what
# is installed is always the static build.
unexport MENUD_DYNAMIC_MENUCTL

MENUD_PROGRAMS := menud menuctl
POPUP_PROGRAMS := menud-popup
PROGRAMS := $(MENUD_PROGRAMS) $(POPUP_PROGRAMS)
DOCS := $(wildcard docs/*.md) config/example.yaml
# Each program's binary, man page and completions.
program_files = \
	$(addprefix $(BINDIR)/,$(1)) \
	$(addprefix $(MANDIR)/man1/,$(addsuffix .1,$(1))) \
	$(addprefix $(BASH_COMPLETION_DIR)/,$(1)) \
	$(addprefix $(ZSH_COMPLETION_DIR)/_,$(1)) \
	$(addprefix $(FISH_COMPLETION_DIR)/,$(addsuffix .fish,$(1)))
MENUD_INSTALLED := \
	$(call program_files,$(MENUD_PROGRAMS)) \
	$(MANDIR)/man5/menud.yaml.5 \
	$(addprefix $(DOCDIR)/,$(notdir $(DOCS))) \
	$(SYSTEMD_USER_UNIT_DIR)/menud.service
POPUP_INSTALLED := $(call program_files,$(POPUP_PROGRAMS))
INSTALLED := $(MENUD_INSTALLED) $(POPUP_INSTALLED)

.PHONY: all install install-menud install-popup uninstall deb clean

# What the build reads: when none changed since the last build, `make install` does
# not call swift, so `make && sudo make install` works where root's PATH has none.
UNIT := contrib/systemd/menud.service
MAN_SOURCES := $(wildcard contrib/man/*)
SOURCES := Package.swift Makefile $(shell find Sources -type f) $(UNIT) $(MAN_SOURCES)

all: $(DIST)/built

# The man pages' DESCRIPTION comes from swift-argument-parser's manual generator,
# through its plugin, which reads each program's --experimental-dump-help (the build
# is done by then, so the plugin's own release build has nothing left to do); their
# other sections are contrib/man's (compose-manual.awk says how they are put
# together). menud.yaml(5) is contrib/man's alone, dated as the others are. The
# pages say @DOCDIR@ where the docs are, which install fills in.
$(DIST)/built: $(SOURCES)
	$(SWIFT) build -c release
	$(SWIFT) package plugin generate-manual $(if $(MAN_DATE),--date $(MAN_DATE))
	rm -rf $(DIST)
	mkdir -p $(DIST)
	set -e; for p in $(PROGRAMS); do \
		cp $(RELEASE)/$$p $(DIST)/$$p; \
		$(STRIP) $(DIST)/$$p; \
		awk -f contrib/man/compose-manual.awk contrib/man/$$p.1.sections \
			$(MANUALS)/$$p/$$p.1 > $(DIST)/$$p.1; \
		$(RELEASE)/$$p --generate-completion-script bash > $(DIST)/$$p.bash; \
		sed -i '1{/^#!/d}' $(DIST)/$$p.bash; \
		$(RELEASE)/$$p --generate-completion-script zsh > $(DIST)/_$$p; \
		$(RELEASE)/$$p --generate-completion-script fish > $(DIST)/$$p.fish; \
	done
	sed "s/^\.Dd @DATE@$$/$$(grep -m1 '^\.Dd ' $(DIST)/menud.1)/" contrib/man/menud.yaml.5 \
		> $(DIST)/menud.yaml.5
	! grep -q '@DATE@' $(DIST)/menud.yaml.5
	@# bash sources a completion script: the generator's `#!/bin/bash` is dropped.
	@# The line install replaces.
	grep -qx 'ExecStart=%h/.local/bin/menud' $(UNIT)
	touch $@

install: install-menud install-popup

# The programs of $(1): each one's binary, man page and completions (program_files).
define install-programs
	set -e; for p in $(1); do \
		$(INSTALL) -m 755 $(DIST)/$$p $(DESTDIR)$(BINDIR)/$$p; \
		sed 's|@DOCDIR@|$(DOCDIR)|g' $(DIST)/$$p.1 > $(DESTDIR)$(MANDIR)/man1/$$p.1; \
		chmod 644 $(DESTDIR)$(MANDIR)/man1/$$p.1; \
		$(INSTALL) -m 644 $(DIST)/$$p.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/$$p; \
		$(INSTALL) -m 644 $(DIST)/_$$p $(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$p; \
		$(INSTALL) -m 644 $(DIST)/$$p.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/$$p.fish; \
	done
endef

# The unit is made here, from PREFIX as given to install.
install-menud: all
	$(INSTALL) -d $(addprefix $(DESTDIR),$(sort $(dir $(MENUD_INSTALLED))))
	$(call install-programs,$(MENUD_PROGRAMS))
	sed 's|@DOCDIR@|$(DOCDIR)|g' $(DIST)/menud.yaml.5 > $(DESTDIR)$(MANDIR)/man5/menud.yaml.5
	chmod 644 $(DESTDIR)$(MANDIR)/man5/menud.yaml.5
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)
	sed 's|^ExecStart=%h/.local/bin/menud$$|ExecStart=$(BINDIR)/menud|' $(UNIT) \
		> $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/menud.service
	chmod 644 $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/menud.service

# Its man page points to the docs that install-menud puts in DOCDIR.
install-popup: all
	$(INSTALL) -d $(addprefix $(DESTDIR),$(sort $(dir $(POPUP_INSTALLED))))
	$(call install-programs,$(POPUP_PROGRAMS))

# The files only: the folders may hold other programs' files.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# The Debian packages, one per part: what `make install-menud` and
# `make install-popup` stage with DESTDIR=… PREFIX=/usr, in the places Debian's
# packages use (zsh's vendor-completions, systemd's user units under /usr/lib), with
# contrib/debian/PACKAGE's control, copyright and lintian overrides, and a
# changelog. dpkg-shlibdeps (dpkg-dev) works out Depends from the libraries the
# programs link: menud's system libraries and GTK's for the popup; menuctl, a
# static executable, links none. The popup's control adds menud of the same
# version, the daemon it is a client of, whose package also holds the docs its page
# points to. The version is MenudRelease's, and the build checks that the programs
# say the same. Files carry the time of the last commit (dpkg-deb clamps them to
# SOURCE_DATE_EPOCH), so that two builds of one commit give the same packages.
DEB_VERSION := $(shell sed -n 's/^ *public static let version = "\(.*\)"$$/\1/p' \
	Sources/MenuProtocol/MenudRelease.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB_PACKAGES := menud menud-popup
DEBS := $(foreach p,$(DEB_PACKAGES),$(p)_$(DEB_VERSION)_$(DEB_ARCH).deb)
# debian/PACKAGE as debhelper lays it out: dpkg-shlibdeps reads debian/control and
# finds a program's package by the folder with its DEBIAN.
DEB_BUILD := .build/deb
DEB_PATHS := PREFIX=/usr ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions \
	SYSTEMD_USER_UNIT_DIR=/usr/lib/systemd/user
DEB_EPOCH := $(or $(shell git log -1 --format=%ct 2>/dev/null),$(shell date +%s))
DEB_COMMIT := $(shell git log -1 --format=%h 2>/dev/null)

deb: $(DEBS)

# The package $(1) from what is staged in its folder: pages compressed, its own
# copyright, overrides and changelog, then its control and md5sums.
define deb-package
	find $(DEB_BUILD)/debian/$(1)/usr/share/man -type f -exec gzip -9n {} +
	$(INSTALL) -d $(DEB_BUILD)/debian/$(1)/usr/share/doc/$(1) $(DEB_BUILD)/debian/$(1)/DEBIAN
	$(INSTALL) -m 644 contrib/debian/$(1)/copyright $(DEB_BUILD)/debian/$(1)/usr/share/doc/$(1)/copyright
	set -e; if [ -f contrib/debian/$(1)/lintian-overrides ]; then \
		$(INSTALL) -d $(DEB_BUILD)/debian/$(1)/usr/share/lintian/overrides; \
		$(INSTALL) -m 644 contrib/debian/$(1)/lintian-overrides \
			$(DEB_BUILD)/debian/$(1)/usr/share/lintian/overrides/$(1); \
	fi
	@# A native package's changelog: one entry, for the commit it was built from.
	{ printf 'menud (%s) unstable; urgency=medium\n\n' '$(DEB_VERSION)'; \
	  printf '  * menud %s%s.\n\n' '$(DEB_VERSION)' '$(if $(DEB_COMMIT), built from commit $(DEB_COMMIT))'; \
	  printf ' -- %s  %s\n' "$$(sed -n 's/^Maintainer: //p' contrib/debian/$(1)/control)" \
		"$$(LC_ALL=C date -u -R -d @$(DEB_EPOCH))"; \
	} | gzip -9n > $(DEB_BUILD)/debian/$(1)/usr/share/doc/$(1)/changelog.gz
	chmod 644 $(DEB_BUILD)/debian/$(1)/usr/share/doc/$(1)/changelog.gz
	set -e; cd $(DEB_BUILD); \
	dynamic=$$(for p in debian/$(1)/usr/bin/*; do \
		if readelf -d "$$p" | grep -q NEEDED; then echo "$$p"; fi; done); \
	depends=$$(dpkg-shlibdeps -O $$dynamic | sed -n 's/^shlibs:Depends=//p'); \
	test -n "$$depends"; \
	size=$$(du -sk --exclude=DEBIAN debian/$(1) | cut -f1); \
	sed -e 's/@VERSION@/$(DEB_VERSION)/g' -e 's/@ARCH@/$(DEB_ARCH)/' \
		-e "s/@SIZE@/$$size/" -e "s/@DEPENDS@/$$depends/" $(CURDIR)/contrib/debian/$(1)/control \
		> debian/$(1)/DEBIAN/control
	cd $(DEB_BUILD)/debian/$(1) && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z \
		| xargs -0 md5sum > DEBIAN/md5sums
	chmod -R u+rwX,go=rX $(DEB_BUILD)/debian/$(1)
	@# gzip, not dpkg-deb's xz: a package that is installed where it is built gains
	@# little from xz's smaller file (9 MB, not 12), which takes 7 times as long.
	SOURCE_DATE_EPOCH=$(DEB_EPOCH) dpkg-deb --root-owner-group -Zgzip \
		--build $(DEB_BUILD)/debian/$(1) $(1)_$(DEB_VERSION)_$(DEB_ARCH).deb
endef

$(DEBS) &: $(DIST)/built $(wildcard contrib/debian/*/*) $(DOCS)
	@command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null \
		|| { echo "make deb needs dpkg-deb and dpkg-shlibdeps: apt-get install dpkg-dev" >&2; exit 1; }
	test "$$($(DIST)/menud --version)" = "$(DEB_VERSION)"
	rm -rf $(DEB_BUILD) $(addsuffix _*.deb,$(DEB_PACKAGES))
	$(MAKE) --no-print-directory install-menud DESTDIR=$(CURDIR)/$(DEB_BUILD)/debian/menud $(DEB_PATHS)
	$(MAKE) --no-print-directory install-popup DESTDIR=$(CURDIR)/$(DEB_BUILD)/debian/menud-popup $(DEB_PATHS)
	@# The source package's control file, which dpkg-shlibdeps reads (a stub).
	{ printf 'Source: menud\n'; for p in $(DEB_PACKAGES); do \
		printf '\nPackage: %s\nArchitecture: any\n' $$p; done; } > $(DEB_BUILD)/debian/control
	$(call deb-package,menud)
	$(call deb-package,menud-popup)

clean:
	rm -rf $(DIST) $(DEB_BUILD) $(addsuffix _*.deb,$(DEB_PACKAGES))
