#!/bin/bash
# data3-rfp: the data3 network (results/sprt/data3/, accepted at 25,000 nodes but not landed
# because the search missed the two-rook mate in 2 with it) landed as nets/clio-3.nnue, together
# with the fix for that miss: no reverse futility for a side with only its king and pawns.
# Against main (bench 721,976); this is the combination that lands (bench 589,642).
# 25,000 nodes, UHO, [0, 10] nElo, seed 212. Plain release builds: .dev/clio-d3r is this branch,
# .dev/clio is main.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-d3r --base-cmd .dev/clio --dev-name data3-rfp --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 212 --state results/sprt/data3-rfp/state.json --json results/sprt/data3-rfp/result.json --plot results/sprt/data3-rfp/sprt.svg --pgn results/sprt/data3-rfp/games.pgn
