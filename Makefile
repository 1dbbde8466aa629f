# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing.
SWIFT ?= swift
DEMO_DIR ?= demo-output
PREFIX ?= /usr/local
# Extra options for `make studio`, e.g. STUDIO_ARGS="--library ~/Pictures/Library --dark".
STUDIO_ARGS ?= --device virtual
APP_ID := org.viewfinder.Studio
# How long `make fuzz` runs each fuzz target, in seconds.
FUZZ_SECONDS ?= 60

.PHONY: all deps build release test test-loaded fuzz demo studio install uninstall bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The timing-sensitive suites again with two busy loops per core beside them (after `test`,
# whose build it reuses; it does not run the whole suite again).
test-loaded: deps
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

# Installs both programs, their manual pages and shell completions, the .desktop file, the icon and
# the video thumbnailer entry under $(DESTDIR)$(PREFIX).
install: release
	install -Dm755 .build/release/viewfinder "$(DESTDIR)$(PREFIX)/bin/viewfinder"
	install -Dm755 .build/release/viewfinder-studio "$(DESTDIR)$(PREFIX)/bin/viewfinder-studio"
	install -Dm644 data/$(APP_ID).desktop "$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop"
	install -Dm644 data/icons/$(APP_ID).svg "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -Dm644 data/viewfinder.thumbnailer "$(DESTDIR)$(PREFIX)/share/thumbnailers/viewfinder.thumbnailer"
	@# Manual pages and shell completions, made by the programs from their own option tables.
	install -d "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
		"$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	for program in viewfinder viewfinder-studio; do \
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
	for program in viewfinder viewfinder-studio; do \
		rm -f "$(DESTDIR)$(PREFIX)/share/man/man1/$$program.1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$program" \
			"$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_$$program" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$program.fish"; \
	done

bench:
	@scripts/install-deps --bench
	$(SWIFT) build -c release
	@scripts/bench
	@scripts/bench-studio
	@scripts/bench-studio-hud

clean:
	$(SWIFT) package clean
	rm -rf "$(DEMO_DIR)" bench-output
