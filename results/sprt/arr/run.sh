#!/bin/bash
# arr: after a move raises alpha without a cutoff at 2 < depth < 12, the later moves are searched 2 plies shallower (Stockfish 16's 'reduce other moves if we have found at least one score improvement'; AlphaRaiseRed 2).
# .dev/clio-c41 is the profile-guided build of branch c41 (main 784,276 plus the options
# AlphaRaiseRed, HistDeepMargin and UseExactUpdate, all off by default); the base is the same
# binary with its defaults, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c41 --base-cmd .dev/clio-c41 --dev-name arr --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 188 --dev-option AlphaRaiseRed=2 --state results/sprt/arr/state.json --json results/sprt/arr/result.json --plot results/sprt/arr/sprt.svg --pgn results/sprt/arr/games.pgn
