#!/bin/bash
# scale100k: do the two changes of 2026-11-30 (Rule50Damp 200, low-ply history at
# LowPlyWeight 4096; together +38 Elo at 25,000 nodes) hold at 100,000 nodes a move, four
# times the nodes? The tip (bench 784,276, profile-guided .dev/clio-lp) against itself with
# both off, which is node for node main 751,473.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-lp --base-cmd .dev/clio-lp --dev-name tip --base-name main751 --option Hash=16 --option Threads=1 --nodes 100000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 180 --base-option Rule50Damp=0 --base-option LowPlyWeight=0 --state results/sprt/scale100k/state.json --json results/sprt/scale100k/result.json --plot results/sprt/scale100k/sprt.svg --pgn results/sprt/scale100k/games.pgn
