#!/bin/bash
# aspsc: the aspiration window's first half-width grown with the score, AspWindow + score²/6000
# (Stockfish's `5 + avg * avg / 13797` in its units is about 2.4 + cp²/6630 in centipawns; scores
# above 2000 cp count as 2000). Off by default (bench 903,092 unchanged), on with --dev-option.
# The same binary on both sides, 25,000 nodes, [0, 10] nElo.
# .dev/clio-c43: plain release build of 8557f87, which added the option; .dev/arena likewise.
# Finished (H0 after 2,064 games). The option was removed after the test: rebuild 8557f87 to
# replay it.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c43 --base-cmd .dev/clio-c43 --dev-name aspsc --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 201 --dev-option AspScoreDiv=6000 --state results/sprt/aspsc/state.json --json results/sprt/aspsc/result.json --plot results/sprt/aspsc/sprt.svg --pgn results/sprt/aspsc/games.pgn
