#!/bin/bash
# nullrep: repetitions not looked for across the last null move (Stockfish's pliesFromNull),
# a bug fix, against main 9f00590 (bench 900,876 -> 903,092), at 25,000 nodes, [-3, 1] nElo.
# .dev/clio-nullrep: branch nullrep (main + change.patch); .dev/clio-main: main. Plain release builds.
# To resume: gunzip -k results/sprt/nullrep/games.pgn.gz (arena appends to the PGN its state counts).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-nullrep --base-cmd .dev/clio-main --dev-name nullrep --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 -3 --elo1 1 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 197 --state results/sprt/nullrep/state.json --json results/sprt/nullrep/result.json --plot results/sprt/nullrep/sprt.svg --pgn results/sprt/nullrep/games.pgn
