# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing.
SWIFT ?= swift
DEMO_DIR ?= demo-output
PREFIX ?= /usr/local
# Extra options for `make studio`, e.g. STUDIO_ARGS="--library ~/Pictures/Library --dark".
STUDIO_ARGS ?= --device virtual
APP_ID := org.viewfinder.Studio
# The file chooser portal backend's D-Bus name (data/viewfinder.portal names it too).
PORTAL_ID := org.freedesktop.impl.portal.desktop.viewfinder
# How long `make fuzz` runs each fuzz target, in seconds.
FUZZ_SECONDS ?= 60
# `make test` ends with the package checks (the .deb installed into a fresh Debian root, the
# README's samples built against a version tag, the API documentation): about 5 minutes on 2 cores.
# SKIP_PACKAGE_CHECKS=1 skips them on a developer's machine, and says so; CI runs them.
SKIP_PACKAGE_CHECKS ?=
# Release builds link the Swift runtime into each program, so they run where no toolchain is
# installed (start-up and size both ways: BENCHMARKS.md), with no $$ORIGIN runpath (they load no
# library of their own), linking only the libraries they use. Symbols stay bound lazily: binding
# GTK's, FFmpeg's and OpenCV's at start (-z now) cost more start-up than the runtime's linking saved.
# Only the two programs: the test support target needs the Testing module, which the static
# runtime does not have.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xlinker --as-needed
RELEASE_BUILD = $(SWIFT) build $(RELEASE_FLAGS) --product viewfinder && $(SWIFT) build $(RELEASE_FLAGS) --product viewfinder-studio \
	&& scripts/update-po --compile .build/release/locale
# The translations (po/LANG.po) compiled beside the programs, where they look first.
DEBUG_CATALOGUES = scripts/update-po --compile .build/debug/locale

.PHONY: all deps oracles build release test test-loaded package-checks fuzz demo studio install uninstall deb docs bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build
	@$(DEBUG_CATALOGUES)

# Builds the programs only: the libraries they link, not the test tools.
release:
	@scripts/install-deps --build
	$(RELEASE_BUILD)

# Test oracles that are not Debian 12 packages as they are (scripts/install-oracles).
oracles: deps
	@scripts/install-oracles

test: deps oracles
	$(SWIFT) build --build-tests
	@$(DEBUG_CATALOGUES)
	$(SWIFT) test --skip-build
	@if [ -n "$(SKIP_PACKAGE_CHECKS)" ]; then \
		echo "make test: package checks SKIPPED (SKIP_PACKAGE_CHECKS=$(SKIP_PACKAGE_CHECKS)): the .deb in a fresh root, the README samples by version and the API documentation were not checked"; \
	else \
		$(MAKE) --no-print-directory package-checks; \
	fi

# The .deb installed with apt into a fresh Debian root (no Swift there) and run; the README's Swift
# samples built as a separate package that depends on this one by version, and run; the API
# documentation of every library product (docc fails on a broken symbol link).
package-checks: deb
	@scripts/install-deps --package
	@scripts/check-package "dist/viewfinder_$$(scripts/version)_$$(dpkg --print-architecture).deb"
	@SWIFT="$(SWIFT)" scripts/check-readme-samples
	@SWIFT="$(SWIFT)" scripts/make-docs

# The timing-sensitive suites again with two busy loops per core beside them (after `test`,
# whose build it reuses; it does not run the whole suite again).
test-loaded: deps oracles
	$(SWIFT) build --build-tests
	@SWIFT="$(SWIFT)" scripts/test-loaded

# The libFuzzer targets under Fuzz/, built in .build/fuzz with the fuzzer and address
# sanitizers; fails on any crash, leak or timeout and leaves the input in Fuzz/crashes/.
fuzz:
	@scripts/install-deps --fuzz
	@SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" scripts/fuzz

demo: release
	@scripts/demo "$(DEMO_DIR)"

# The desktop app, with the virtual camera offered (a real one is used first when present).
studio: release
	.build/release/viewfinder-studio $(STUDIO_ARGS)

# Installs both programs, their manual pages and shell completions, the .desktop file (with its
# D-Bus service, which "Open with" starts the app through), the AppStream metainfo, the icon,
# the video thumbnailer entry and the file chooser portal backend (its .portal file and D-Bus
# service; README says how a user selects it) under $(DESTDIR)$(PREFIX).
install: release
	install -Dm755 .build/release/viewfinder "$(DESTDIR)$(PREFIX)/bin/viewfinder"
	install -Dm755 .build/release/viewfinder-studio "$(DESTDIR)$(PREFIX)/bin/viewfinder-studio"
	install -Dm644 data/$(APP_ID).desktop "$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop"
	install -Dm644 data/icons/$(APP_ID).svg "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -Dm644 data/viewfinder.thumbnailer "$(DESTDIR)$(PREFIX)/share/thumbnailers/viewfinder.thumbnailer"
	install -Dm644 data/$(APP_ID).metainfo.xml "$(DESTDIR)$(PREFIX)/share/metainfo/$(APP_ID).metainfo.xml"
	install -d "$(DESTDIR)$(PREFIX)/share/dbus-1/services"
	sed 's|@bindir@|$(PREFIX)/bin|' data/$(APP_ID).service.in > "$(DESTDIR)$(PREFIX)/share/dbus-1/services/$(APP_ID).service"
	install -Dm644 data/viewfinder.portal "$(DESTDIR)$(PREFIX)/share/xdg-desktop-portal/portals/viewfinder.portal"
	sed 's|@bindir@|$(PREFIX)/bin|' data/$(PORTAL_ID).service.in > "$(DESTDIR)$(PREFIX)/share/dbus-1/services/$(PORTAL_ID).service"
	@# Manual pages and shell completions, made by the programs from their own option tables.
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
		"$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	for language in $$(sed 's/#.*//' po/LINGUAS); do \
		install -Dm644 .build/release/locale/$$language/LC_MESSAGES/viewfinder.mo \
			"$(DESTDIR)$(PREFIX)/share/locale/$$language/LC_MESSAGES/viewfinder.mo" || exit 1; \
	done
	@# In English whatever the building user's language, as Debian's manual pages are.
	for program in viewfinder viewfinder-studio; do \
		export LC_ALL=C.UTF-8 LANGUAGE=; \
		.build/release/$$program --man > "$(DESTDIR)$(PREFIX)/share/man/man1/$$program.1" && \
		.build/release/$$program --completions bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$program" && \
		.build/release/$$program --completions zsh > "$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_$$program" && \
		.build/release/$$program --completions fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$program.fish" || exit 1; \
	done
	@# The desktop's caches are refreshed for a live install, not when staging into DESTDIR.
	@if [ -z "$(DESTDIR)" ]; then \
		gtk4-update-icon-cache -q -t -f "$(PREFIX)/share/icons/hicolor" 2>/dev/null || true; \
		update-desktop-database -q "$(PREFIX)/share/applications" 2>/dev/null || true; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/viewfinder" "$(DESTDIR)$(PREFIX)/bin/viewfinder-studio"
	rm -f "$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop"
	rm -f "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg"
	rm -f "$(DESTDIR)$(PREFIX)/share/thumbnailers/viewfinder.thumbnailer"
	rm -f "$(DESTDIR)$(PREFIX)/share/dbus-1/services/$(APP_ID).service"
	rm -f "$(DESTDIR)$(PREFIX)/share/xdg-desktop-portal/portals/viewfinder.portal"
	rm -f "$(DESTDIR)$(PREFIX)/share/dbus-1/services/$(PORTAL_ID).service"
	rm -f "$(DESTDIR)$(PREFIX)/share/metainfo/$(APP_ID).metainfo.xml"
	for language in $$(sed 's/#.*//' po/LINGUAS); do \
		rm -f "$(DESTDIR)$(PREFIX)/share/locale/$$language/LC_MESSAGES/viewfinder.mo"; \
	done
	for program in viewfinder viewfinder-studio; do \
		rm -f "$(DESTDIR)$(PREFIX)/share/man/man1/$$program.1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$program" \
			"$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_$$program" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$program.fish"; \
	done

# dist/viewfinder_VERSION_ARCH.deb: the programs, desktop entry, icon, thumbnailer, manual pages
# and completions, with the libraries they link as Depends (dpkg-shlibdeps).
deb: release
	@scripts/install-deps --package
	@scripts/make-deb

# The API documentation of every library product, built with the toolchain's docc into .build/docs.
docs:
	@scripts/install-deps --build
	@SWIFT="$(SWIFT)" scripts/make-docs

bench:
	@scripts/install-deps --bench
	$(RELEASE_BUILD)
	@scripts/bench
	@scripts/bench-studio
	@scripts/bench-studio-hud
	@SWIFT="$(SWIFT)" scripts/bench-startup

clean:
	$(SWIFT) package clean
	rm -rf "$(DEMO_DIR)" bench-output dist
