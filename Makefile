# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing.
SWIFT ?= swift
DEMO_DIR ?= demo-output

.PHONY: all deps build release test demo bench clean

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

demo: release
	@scripts/demo "$(DEMO_DIR)"

bench:
	@scripts/install-deps --bench
	$(SWIFT) build -c release
	@scripts/bench

clean:
	$(SWIFT) package clean
	rm -rf "$(DEMO_DIR)" bench-output
