# The two commands of the README:
#   make demo   set up what the page needs, build its wasm module, serve it and print its URL (PORT=NNNN to choose the port)
#   make test   set up and run every test layer (native, wasm in headless chromium, end-to-end)
# Other targets: make build (the JS package in pkg/ and the page's copy), make dist (the hosted static site in dist/), make bench, make bench-scaling, make estimates, make setup,
# make lint (fmt, clippy, and the workflow files with actionlint; make test runs it).

SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)
PORT ?= 8000
# What the two release wasm modules are built from (scripts/build-module.sh: cargo, then the wasm-bindgen CLI).
# The modules are files with these prerequisites, so a run with nothing changed builds neither again (they
# differ only by the cargo feature test-hooks, so in the one target directory each build replaces the
# other's artifact, and cargo alone would rebuild both on every run).
WASM_SOURCES := Cargo.toml Cargo.lock $(shell find src -type f) .cargo/config.toml
PKG_WASM := pkg/dp_explorer_bg.wasm
E2E_WASM := target/e2e-pkg/dp_explorer_bg.wasm
# Browser tests of the wasm API: the runner's own limit (seconds).
export WASM_BINDGEN_TEST_TIMEOUT ?= 120

# A module whose build fails half-way is not kept as up to date.
.DELETE_ON_ERROR:

.PHONY: demo page test setup build build-e2e dist lint lint-workflows test-native test-wasm test-e2e wasm-side e2e-module e2e-module-page e2e bench bench-scaling estimates fixtures

setup:
	@bash scripts/setup.sh

# The JS package in pkg/ (package.json, .js, .wasm, .d.ts, the licences and
# docs/js-api.md as its README), and its module and wasm copied into www/pkg/
# for the page, with www/pkg/describe.json (the scenarios' descriptions the page paints from before the
# module has loaded; written by the built module in node, the same bytes as `dp-explorer describe --json`:
# no native build). All generated, git-ignored.
build: setup
	$(MAKE) --no-print-directory $(PKG_WASM)
	bash scripts/copy-pkg.sh
	bash scripts/describe.sh

# A self-contained static site in dist/ (release wasm, page, worker, css).
# Needs no browser, so it sets up without one (as on a CI runner).
dist:
	@bash scripts/setup.sh --no-browser
	bash scripts/build-dist.sh

# The page alone (what make demo serves): the wasm module bound straight into www/pkg/ with describe.json,
# after the setup it needs (the wasm32 target and the wasm-bindgen CLI only). make build makes the same
# module and glue inside the JS package.
page:
	@bash scripts/setup.sh --page
	bash scripts/build-page.sh

demo: page
	@PORT=$(PORT) bash scripts/serve.sh

# lint first; then the native tests beside the wasm side (the JS package's release module, the end-to-end
# module, the wasm browser tests): cargo test leaves a core idle while it runs its test binaries, and the wasm
# builds lock other build directories than its own. Then, in order, the description check (against the CLI cargo
# test built), dist/ and the end-to-end tests. Clippy beside those builds instead of before them was tried on a
# fresh clone and was no faster (1169 s to the end-to-end tests against 1010 s, in a slower hour), so it stays
# first, where a lint error shows within minutes.
test: setup
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory -j2 --output-sync=target test-native wasm-side
	# With DP_EXPLORER_BIN, scripts/describe.sh also checks that the CLI's description is the module's, byte for byte.
	bash scripts/copy-pkg.sh
	DP_EXPLORER_BIN=$(CURDIR)/target/debug/dp-explorer bash scripts/describe.sh
	SKIP_WASM_BUILD=1 bash scripts/build-dist.sh
	$(MAKE) --no-print-directory e2e-module-page
	DP_EXPLORER_BIN=$(CURDIR)/target/debug/dp-explorer $(MAKE) --no-print-directory e2e

test-native:
	cargo test

# The browser tests of the wasm API: cargo runs the test module in headless chromium through the wasm-bindgen
# CLI's test runner and Debian's chromedriver. In the release profile, as the modules are built: their
# dependencies are then compiled for wasm32 once, not again in the dev profile for 13 tests (measured on a fresh
# clone, 2 cores, each beside cargo test's build: 172 s against 305 s).
test-wasm:
	CHROMEDRIVER=$$(command -v chromedriver) CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	  cargo test --release --target wasm32-unknown-unknown --test web

# make test's wasm side, one after the other: pkg/ (as make build, without its copies), the end-to-end
# module, then the wasm browser tests.
wasm-side:
	$(MAKE) --no-print-directory $(PKG_WASM)
	$(MAKE) --no-print-directory $(E2E_WASM)
	$(MAKE) --no-print-directory test-wasm

$(PKG_WASM): $(WASM_SOURCES)
	TYPESCRIPT=1 bash scripts/build-module.sh pkg

# The page's module with the end-to-end tests' hook (cargo feature test-hooks: the wasm
# debug_panic) into www/pkg/ only; pkg/ and dist/ never carry it (make build restores www/pkg/).
build-e2e: setup
	$(MAKE) --no-print-directory e2e-module
	$(MAKE) --no-print-directory e2e-module-page

e2e-module: $(E2E_WASM)

$(E2E_WASM): $(WASM_SOURCES)
	bash scripts/build-module.sh target/e2e-pkg --features test-hooks

e2e-module-page:
	mkdir -p www/pkg && cp target/e2e-pkg/dp_explorer.js target/e2e-pkg/dp_explorer_bg.wasm www/pkg/

# The test comparing the CLI with the page runs DP_EXPLORER_BIN when set: `make test` passes the CLI
# that `cargo test` has just built (target/debug), so no second, native release build is made.
test-e2e: build-e2e
	$(MAKE) --no-print-directory e2e

# The end-to-end tests on the module in www/pkg/ (make build-e2e's), one file at a time: two at once was
# measured no faster on 2 cores (a page computes more than it waits), and several files time the page.
e2e:
	node --test --test-concurrency=1 tests/e2e/

# fmt, clippy (native and wasm) and the GitHub workflow files (actionlint); make test runs it first.
lint: setup
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings
	$(MAKE) --no-print-directory lint-workflows

lint-workflows:
	node scripts/lint-workflows.mjs

bench: build
	bash scripts/bench.sh

# The native sweeps' wall and CPU time against the thread count (1, 2, 4, … up to the cores), with the
# cost model's prediction, into docs/performance.md: dpgd-paper, its paper cell, FedRep at n = 10⁶. A
# benchmark (minutes), not part of make test.
bench-scaling:
	bash scripts/bench-scaling.sh

# The page's time estimate against its measured time (Run to done, its pool of workers) for every preset, 3 times
# interleaved (dpgd-paper once: minutes), into docs/performance.md between its estimates markers.
estimates: build
	node scripts/estimates.mjs --repeat 3 --once dpgd-paper --write docs/performance.md

# Stores a preset's outputs for tests/fixtures.rs, byte for byte (a new preset's case, or a case whose
# algorithm or data model changed on purpose), at a test size:
#   make fixtures PRESET=name SET="n=80 seeds=2" [CASE=dir, default PRESET-small]
# writes tests/fixtures/baseline/CASE/args.txt and the CSV files of `dp-explorer sweep --threads 1 ARGS`.
fixtures:
	@[ -n "$(PRESET)" ] || { echo 'usage: make fixtures PRESET=name SET="key=value ..." [CASE=dir]' >&2; exit 1; }
	@dir=tests/fixtures/baseline/$(or $(CASE),$(PRESET)-small); out=target/fixture-out; \
	args="$(strip --preset $(PRESET) $(foreach s,$(SET),--set $(s)))"; \
	rm -rf $$out && cargo run --quiet -- sweep --threads 1 $$args --out $$out > /dev/null && \
	mkdir -p $$dir && echo "$$args" > $$dir/args.txt && \
	for f in $$out/*.csv; do [ "$$(basename $$f)" = claims.csv ] || cp $$f $$dir/; done && \
	echo "stored $$dir ($$(ls $$dir | tr '\n' ' ')): $$args"
