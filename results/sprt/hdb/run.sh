#!/bin/bash
# hdb: a quiet cutoff that beats beta by more than 150 gives its histories the bonus of one ply deeper (Stockfish 15's bestValue > beta + 145; HistDeepMargin 150).
# .dev/clio-c41 is the profile-guided build of branch c41 (main 784,276 plus the options
# AlphaRaiseRed, HistDeepMargin and UseExactUpdate, all off by default); the base is the same
# binary with its defaults, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c41 --base-cmd .dev/clio-c41 --dev-name hdb --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 190 --dev-option HistDeepMargin=150 --state results/sprt/hdb/state.json --json results/sprt/hdb/result.json --plot results/sprt/hdb/sprt.svg --pgn results/sprt/hdb/games.pgn
