#!/bin/bash
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-cx --base-cmd /work/bins/clio-8a25e67 --dev-name cx --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 144 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/cx/state.json --json /work/runs/cx/result.json --plot /work/runs/cx/sprt.svg --max-games 20000 --pgn /work/runs/cx/games.pgn
