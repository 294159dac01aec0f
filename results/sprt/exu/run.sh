#!/bin/bash
# exu: a PV node whose best move raised alpha without a cutoff updates killers, countermove and histories as a cutoff would (Stockfish's update_all_stats at every best move; UseExactUpdate).
# .dev/clio-c41 is the profile-guided build of branch c41 (main 784,276 plus the options
# AlphaRaiseRed, HistDeepMargin and UseExactUpdate, all off by default); the base is the same
# binary with its defaults, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c41 --base-cmd .dev/clio-c41 --dev-name exu --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 189 --dev-option UseExactUpdate=true --state results/sprt/exu/state.json --json results/sprt/exu/result.json --plot results/sprt/exu/sprt.svg --pgn results/sprt/exu/games.pgn
