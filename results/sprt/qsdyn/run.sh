#!/bin/bash
# qsdyn: quiescence captures must also win alpha - static eval - QsSeeGap (110) by SEE (Ethereal 12's
# MAX(1, alpha - eval - QSSeeMargin)), against main 9acd597 (bench 903,092 -> 868,887), 25,000 nodes, [0, 10] nElo.
# .dev/clio-qsdyn: main + change.patch; .dev/clio-main: main. Plain release builds.
# To resume: gunzip -k results/sprt/qsdyn/games.pgn.gz (arena appends to the PGN its state counts).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-qsdyn --base-cmd .dev/clio-main --dev-name qsdyn --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 199 --state results/sprt/qsdyn/state.json --json results/sprt/qsdyn/result.json --plot results/sprt/qsdyn/sprt.svg --pgn results/sprt/qsdyn/games.pgn
