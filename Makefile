# Clio — see README.md.  make [EXE=name] · make test · make bench · make sprt · make spsa · make openings
EXE    ?= clio
CARGO  ?= cargo
RELEASE = target/release

.PHONY: all build test bench ablation sprt spsa openings fmt clippy clean

# `make EXE=<name>` builds the engine to that file name (OpenBench's client calls it so).
all: build
	@if [ "$(EXE)" != "$(RELEASE)/clio" ]; then cp $(RELEASE)/clio "$(EXE)"; fi

build:
	$(CARGO) build --release --workspace

# The test command (README, .ci/run): installs its own needs, then format, lints, bench
# signature and every test, in release mode so the perft suite stays quick.
test:
	bash ci/setup.sh
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO) build --release --workspace
	bash ci/check-bench.sh $(RELEASE)/clio
	$(CARGO) test --workspace

bench: build
	$(RELEASE)/clio bench

ablation: build
	$(RELEASE)/clio bench --ablation

clean:
	$(CARGO) clean
