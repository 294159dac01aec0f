#!/bin/bash
# ks30: king safety: weak king-zone squares (enemy-attacked, no own pawn defends) and the
# king's exposure (virtual queen mobility, with an enemy queen on), fitted by texel with the
# king attack, safe check and shield weights refitted, every other group frozen; against main.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ks30 --base-cmd /work/bins/clio-main28 --dev-name ks30 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 169 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/ks30s/state.json --json /work/runs/ks30s/result.json --plot /work/runs/ks30s/sprt.svg --pgn /work/runs/ks30s/games.pgn --max-games 20000
