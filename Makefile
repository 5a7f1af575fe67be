# `make` builds menud and menuctl for release, with their man pages and shell
# completions, into .build/dist; `make install` copies them, the systemd user unit,
# the docs and the example config under $(DESTDIR)$(PREFIX), and `make uninstall`
# removes those files again.
#
#   make install PREFIX=~/.local          for one user
#   make && sudo make install             for everyone, under /usr/local
#   make install DESTDIR=pkg PREFIX=/usr  for a package
#
# `make deb` packages the same files as a Debian package, menud_VERSION_ARCH.deb.

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

# The release build of `swift build -c release` (menud and menuctl have the Swift
# runtime linked in there, Package.swift), and what is made from it.
RELEASE := .build/release
DIST := .build/dist
MANUALS := .build/plugins/GenerateManual/outputs

# .ci/sanitize sets it to link menuctl and menud dynamically; what is installed is
# always the static build.
unexport MENUD_DYNAMIC_MENUCTL

PROGRAMS := menud menuctl
DOCS := $(wildcard docs/*.md) config/example.yaml
INSTALLED := \
	$(addprefix $(BINDIR)/,$(PROGRAMS)) \
	$(addprefix $(MANDIR)/man1/,$(addsuffix .1,$(PROGRAMS))) \
	$(MANDIR)/man5/menud.yaml.5 \
	$(addprefix $(DOCDIR)/,$(notdir $(DOCS))) \
	$(addprefix $(BASH_COMPLETION_DIR)/,$(PROGRAMS)) \
	$(addprefix $(ZSH_COMPLETION_DIR)/_,$(PROGRAMS)) \
	$(addprefix $(FISH_COMPLETION_DIR)/,$(addsuffix .fish,$(PROGRAMS))) \
	$(SYSTEMD_USER_UNIT_DIR)/menud.service

.PHONY: all install uninstall deb clean

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

# The unit is made here, from PREFIX as given to install.
install: all
	$(INSTALL) -d $(addprefix $(DESTDIR),$(sort $(dir $(INSTALLED))))
	$(INSTALL) -m 755 $(DIST)/menud $(DIST)/menuctl $(DESTDIR)$(BINDIR)
	set -e; for page in man1/menud.1 man1/menuctl.1 man5/menud.yaml.5; do \
		sed 's|@DOCDIR@|$(DOCDIR)|g' $(DIST)/$$(basename $$page) > $(DESTDIR)$(MANDIR)/$$page; \
		chmod 644 $(DESTDIR)$(MANDIR)/$$page; \
	done
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)
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

# The Debian package: what `make install DESTDIR=… PREFIX=/usr` stages, in the
# places Debian's packages use (zsh's vendor-completions, systemd's user units under
# /usr/lib), with contrib/debian's control, copyright and lintian overrides, and a
# changelog. dpkg-shlibdeps (dpkg-dev) works out Depends from the libraries menud
# links; menuctl, a static executable, links none. The version is MenudRelease's,
# and the build checks that the programs say the same. Files carry the time of the
# last commit (dpkg-deb clamps them to SOURCE_DATE_EPOCH), so that two builds of one
# commit give the same package.
DEB_VERSION := $(shell sed -n 's/^ *public static let version = "\(.*\)"$$/\1/p' \
	Sources/MenuProtocol/MenudRelease.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB := menud_$(DEB_VERSION)_$(DEB_ARCH).deb
# debian/menud as debhelper lays it out: dpkg-shlibdeps reads debian/control and
# finds the package's own folder by its DEBIAN.
DEB_BUILD := .build/deb
DEB_ROOT := $(DEB_BUILD)/debian/menud
DEB_DOC := $(DEB_ROOT)/usr/share/doc/menud
DEB_EPOCH := $(or $(shell git log -1 --format=%ct 2>/dev/null),$(shell date +%s))
DEB_COMMIT := $(shell git log -1 --format=%h 2>/dev/null)

deb: $(DEB)

$(DEB): $(DIST)/built $(wildcard contrib/debian/*) $(DOCS)
	@command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null \
		|| { echo "make deb needs dpkg-deb and dpkg-shlibdeps: apt-get install dpkg-dev" >&2; exit 1; }
	test "$$($(DIST)/menud --version)" = "$(DEB_VERSION)"
	rm -rf $(DEB_BUILD) menud_*.deb
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr \
		ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions \
		SYSTEMD_USER_UNIT_DIR=/usr/lib/systemd/user
	gzip -9n $(DEB_ROOT)/usr/share/man/man1/*.1 $(DEB_ROOT)/usr/share/man/man5/*.5
	$(INSTALL) -d $(DEB_DOC) $(DEB_ROOT)/usr/share/lintian/overrides $(DEB_ROOT)/DEBIAN
	$(INSTALL) -m 644 contrib/debian/copyright $(DEB_DOC)/copyright
	$(INSTALL) -m 644 contrib/debian/lintian-overrides $(DEB_ROOT)/usr/share/lintian/overrides/menud
	@# A native package's changelog: one entry, for the commit it was built from.
	{ printf 'menud (%s) unstable; urgency=medium\n\n' '$(DEB_VERSION)'; \
	  printf '  * menud %s%s.\n\n' '$(DEB_VERSION)' '$(if $(DEB_COMMIT), built from commit $(DEB_COMMIT))'; \
	  printf ' -- %s  %s\n' "$$(sed -n 's/^Maintainer: //p' contrib/debian/control)" \
		"$$(LC_ALL=C date -u -R -d @$(DEB_EPOCH))"; \
	} | gzip -9n > $(DEB_DOC)/changelog.gz
	chmod 644 $(DEB_DOC)/changelog.gz
	@# The source package's control file, which dpkg-shlibdeps reads (a stub).
	printf 'Source: menud\n\nPackage: menud\nArchitecture: any\n' > $(DEB_BUILD)/debian/control
	set -e; cd $(DEB_BUILD); \
	dynamic=$$(for p in debian/menud/usr/bin/*; do \
		if readelf -d "$$p" | grep -q NEEDED; then echo "$$p"; fi; done); \
	depends=$$(dpkg-shlibdeps -O $$dynamic | sed -n 's/^shlibs:Depends=//p'); \
	test -n "$$depends"; \
	size=$$(du -sk --exclude=DEBIAN debian/menud | cut -f1); \
	sed -e 's/@VERSION@/$(DEB_VERSION)/' -e 's/@ARCH@/$(DEB_ARCH)/' \
		-e "s/@SIZE@/$$size/" -e "s/@DEPENDS@/$$depends/" $(CURDIR)/contrib/debian/control \
		> debian/menud/DEBIAN/control
	cd $(DEB_ROOT) && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z \
		| xargs -0 md5sum > DEBIAN/md5sums
	chmod -R u+rwX,go=rX $(DEB_ROOT)
	@# gzip, not dpkg-deb's xz: a package that is installed where it is built gains
	@# little from xz's smaller file (9 MB, not 12), which takes 7 times as long.
	SOURCE_DATE_EPOCH=$(DEB_EPOCH) dpkg-deb --root-owner-group -Zgzip --build $(DEB_ROOT) $@

clean:
	rm -rf $(DIST) $(DEB_BUILD) menud_*.deb
