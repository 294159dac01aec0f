#!/bin/bash
# lorder: the picker's quiets generated in legal_moves' own order (no emulation of the old
# partition's queue; tied quiets are searched in another order), a speed-up of 1.5 % of the
# instructions, against main fd8a3d8 (bench 903,092 -> 859,348), 25,000 nodes, [-3, 1] nElo.
# .dev/clio-lorder: branch lorder (main + change.patch); .dev/clio-fd8a3d8: main. Plain release builds.
# To resume: gunzip -k results/sprt/lorder/games.pgn.gz (arena appends to the PGN its state counts).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-lorder --base-cmd .dev/clio-fd8a3d8 --dev-name lorder --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 -3 --elo1 1 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 198 --state results/sprt/lorder/state.json --json results/sprt/lorder/result.json --plot results/sprt/lorder/sprt.svg --pgn results/sprt/lorder/games.pgn
