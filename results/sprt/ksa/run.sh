#!/bin/bash
# ksa: king safety: weak king-zone squares (enemy-attacked, no own pawn defends) and the
# king's exposure (virtual queen mobility, with an enemy queen on), the two new weights fitted
# by texel with every other group frozen; against main.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ksa --base-cmd /work/bins/clio-main28 --dev-name ksa --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 170 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/ksas/state.json --json /work/runs/ksas/result.json --plot /work/runs/ksas/sprt.svg --pgn /work/runs/ksas/games.pgn --max-games 20000
