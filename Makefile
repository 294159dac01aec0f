# Clio — see README.md.  make [EXE=name] · make test · make bench · make sprt · make spsa · make openings
EXE    ?= clio
CARGO  ?= cargo
RELEASE = target/release

.PHONY: all native build test bench ablation ablation-elo gauntlet sprt spsa openings fmt clippy clean

# `make EXE=<name>` builds the engine alone (not the whole workspace) to that file name: the
# OpenBench client runs `make -j EXE=<name>`. The build is profile-guided (ci/pgo-build.sh: an
# instrumented build plays `clio bench`, the release build is optimised with its profile; the
# same nodes, less time a node); `make PGO=0` builds without the profile. `make native
# EXE=<name>` builds for this machine's CPU (`-C target-cpu=native`, as Rust engines on
# OpenBench do); it is not portable.
SHIPPED = target/shipped/clio
all:
	bash ci/pgo-build.sh "$(EXE)"

native:
	RUSTFLAGS="$(RUSTFLAGS) -C target-cpu=native" bash ci/pgo-build.sh "$(EXE)"

build:
	$(CARGO) build --release --workspace

# The test command (README, .ci/run): installs its own needs, then format, lints, bench
# signature (of the plain build and of the profile-guided one `make` ships; under CI a missing
# llvm-profdata fails) and every test (the test profile is optimised, opt-level 3 in
# Cargo.toml, so the perft suite stays quick).
test:
	bash ci/setup.sh
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO) build --release --workspace
	bash ci/check-bench.sh $(RELEASE)/clio
	PGO=$(if $(filter true 1,$(CI)),required,$(or $(PGO),1)) bash ci/pgo-build.sh $(SHIPPED)
	bash ci/check-bench.sh $(SHIPPED)
	$(CARGO) test --workspace --no-fail-fast

bench: build
	$(RELEASE)/clio bench

ablation: build
	$(RELEASE)/clio bench --ablation

clean:
	$(CARGO) clean

# ---- make sprt ---------------------------------------------------------------------------------
# `make sprt`: the current build against the same build with its history heuristics switched off
# by UCI options, at a short clock; a self-test of the whole lab that ends "H1 was accepted" in a
# few minutes on 2 cores. `make sprt BASE=main DEV=feature` (DEV defaults to HEAD) builds both
# refs in their own worktrees (cached by commit) and runs the real test. Output: stdout in
# fastchess's format, and out/sprt.{pgn,json,svg}. Extra arena flags go in SPRT_FLAGS.
SPRT_BASE_OPTIONS ?= UseHistory=false UseMalus=false UseKillers=false UseCountermove=false \
                     UseContHist1=false UseContHist2=false UseContHist3=false UseContHist4=false \
                     UseContHist6=false UsePawnHist=false UseCaptureHistory=false UseHistoryLmr=false \
                     UseHistoryPruning=false LowPlyWeight=0 PrevEvalMul=0
TC          ?= $(if $(BASE),8+0.08,1+0.01)
CONCURRENCY ?= 2
ELO0        ?= 0
ELO1        ?= $(if $(BASE),5,20)
OPENINGS    ?= openings/clio-uho.epd
SEED        ?= 1
MAXGAMES    ?= 20000
SPRT_FLAGS  ?=
# fishtest's adjudication (resign: a side at or below -600 cp for 3 moves; draw: from move 34,
# 8 moves within 20 cp): fewer plies per game, the same decisions. ADJUDICATE= turns it off.
ADJUDICATE  ?= --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20
SPRT_COMMON  = --tc $(TC) --concurrency $(CONCURRENCY) --elo0 $(ELO0) --elo1 $(ELO1) \
               --openings $(OPENINGS) --order random --seed $(SEED) --max-games $(MAXGAMES) \
               $(ADJUDICATE) --pgn out/sprt.pgn --json out/sprt.json --plot out/sprt.svg $(SPRT_FLAGS)

sprt:
	$(CARGO) build --release -p clio -p clio-arena
	@mkdir -p out && rm -f out/sprt.pgn
ifeq ($(BASE),)
	$(RELEASE)/arena sprt --dev-cmd $(RELEASE)/clio --base-cmd $(RELEASE)/clio \
	  --dev-name clio --base-name clio-nohistory \
	  $(foreach o,$(SPRT_BASE_OPTIONS),--base-option $(o)) $(SPRT_COMMON)
else
	$(RELEASE)/arena sprt --base-ref $(BASE) --dev-ref $(or $(DEV),HEAD) $(SPRT_COMMON)
endif

# ---- make ablation-elo -------------------------------------------------------------------------
# The Elo of every history heuristic: `arena ablate` runs one SPRT per switch (defaults against
# the same binary with that switch flipped), plus a row with every history heuristic off. One
# resumable run: the same command continues where it stopped. Output: out/ablation/table.md
# (for the README), table.json, table.svg. ABLATION_LIMIT="--tc 5+0.05" plays at a clock.
ABLATION_FLIPS     ?= UseHistory=false UseMalus=false UseRelativeHistory=true UseKillers=false \
                      UseCountermove=false UseContHist1=false UseContHist2=false UseContHist3=false \
                      UseContHist4=false UseContHist6=false UsePawnHist=false UseCaptureHistory=false \
                      UseHistoryLmr=false UseHistoryPruning=false UseThreatHist=false \
                      UseContHistSplit=false UseCorrHist=false LowPlyWeight=0 PrevEvalMul=0
ABLATION_LIMIT     ?= --nodes 5000
ABLATION_ROW_GAMES ?= 300
ABLATION_OPENINGS  ?= openings/clio-uho.epd
ABLATION_FLAGS     ?=
comma := ,
empty :=
space := $(empty) $(empty)
ablation-elo:
	$(CARGO) build --release -p clio -p clio-arena
	@mkdir -p out/ablation
	$(RELEASE)/arena ablate --engine-cmd $(RELEASE)/clio --name clio \
	  $(foreach f,$(ABLATION_FLIPS),--flip $(f)) \
	  --flip "all history off:$(subst $(space),$(comma),$(strip $(SPRT_BASE_OPTIONS)))" \
	  $(ABLATION_LIMIT) --concurrency $(CONCURRENCY) --elo0 0 --elo1 10 \
	  --row-games $(ABLATION_ROW_GAMES) --openings $(ABLATION_OPENINGS) --seed $(SEED) $(ADJUDICATE) \
	  --state out/ablation/state.json --pgn out/ablation/games.pgn --rating-interval 0 \
	  --markdown out/ablation/table.md --json out/ablation/table.json --plot out/ablation/table.svg \
	  $(ABLATION_FLAGS)

# ---- make gauntlet ------------------------------------------------------------------------------
# Clio against Debian's engines (installed by ci/setup-engines.sh; Debian puts them in its games
# directory, found with dpkg -L): every opening of the balanced book with both colours, 1 thread,
# 16 MB. GAUNTLET_TC=10+0.1 for the longer clock; GAUNTLET_ROUNDS pairs per opponent.
GAUNTLET_TC        ?= 5+0.05
GAUNTLET_ROUNDS    ?= 100
GAUNTLET_OPPONENTS ?= ethereal-chess toga2 glaurung
gauntlet:
	$(CARGO) build --release -p clio-arena
	bash ci/pgo-build.sh $(SHIPPED)
	bash ci/setup-engines.sh $(GAUNTLET_OPPONENTS)
	@mkdir -p out
	$(RELEASE)/arena gauntlet --engine name=clio cmd=$(SHIPPED) \
	  $(foreach e,$(GAUNTLET_OPPONENTS),--engine name=$(e) cmd=$$(bash ci/find-engine.sh $(e))) \
	  --option Threads=1 --option Hash=16 --tc $(GAUNTLET_TC) --rounds $(GAUNTLET_ROUNDS) \
	  --concurrency $(CONCURRENCY) --openings openings/clio-balanced.epd --seed $(SEED) \
	  --pgn out/gauntlet.pgn --json out/gauntlet.json

# ---- make spsa · make openings -----------------------------------------------------------------
# `make spsa CONFIG=tuning/history.toml`: SPSA over the campaign's constants (tuning/README.md);
# the same command resumes a stopped run. Extra arena flags go in SPSA_FLAGS.
CONFIG     ?= tuning/history.toml
SPSA_FLAGS ?=
spsa:
	$(CARGO) build --release -p clio -p clio-arena
	$(RELEASE)/arena spsa $(CONFIG) $(SPSA_FLAGS)

# Regenerates the shipped opening books (windows, counts and engine: openings/README.md).
openings:
	$(CARGO) build --release -p clio -p clio-arena
	$(RELEASE)/arena openings --engine $(RELEASE)/clio --nodes 10000 --plies 8 --count 4000 --min-cp -30 --max-cp 30 --seed 1 --threads 2 --out openings/clio-balanced.epd
	$(RELEASE)/arena openings --engine $(RELEASE)/clio --nodes 10000 --plies 8 --count 1500 --min-cp 80 --max-cp 120 --seed 2 --threads 2 --out openings/clio-uho.epd
	$(RELEASE)/arena openings --chess960 frc --out openings/frc.epd
	$(RELEASE)/arena openings --chess960 dfrc --count 2000 --seed 1 --out openings/dfrc.epd
