#!/bin/bash
# ob8: eight output buckets (by piece count) against one, both fitted to the same data with the
# same settings (train.log: --buckets 8; ../data2/train.log: --buckets 1). 25,000 nodes, UHO,
# [0, 10] nElo, seed 209. Plain release builds of main with change.patch: .dev/clio-B embeds B.nnue,
# .dev/clio-A embeds A.nnue.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-B --base-cmd .dev/clio-A --dev-name ob8 --base-name data2 --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 209 --state results/sprt/ob8/state.json --json results/sprt/ob8/result.json --plot results/sprt/ob8/sprt.svg --pgn results/sprt/ob8/games.pgn
