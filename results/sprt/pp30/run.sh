#!/bin/bash
# pp30: passed-pawn detail 2 (a safe stop square by rank, a free and safe path, a rook behind
# the passer, own or enemy), fitted by texel with every other group frozen, against main.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-pp30 --base-cmd /work/bins/clio-main28 --dev-name pp30 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 168 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/pp30s/state.json --json /work/runs/pp30s/result.json --plot /work/runs/pp30s/sprt.svg --pgn /work/runs/pp30s/games.pgn --max-games 20000
