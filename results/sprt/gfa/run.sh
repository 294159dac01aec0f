#!/bin/bash
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-gfa --base-cmd /work/bins/clio-8a25e67 --dev-name gfa --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 145 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/gfa/state.json --json /work/runs/gfa/result.json --plot /work/runs/gfa/sprt.svg --max-games 20000 --pgn /work/runs/gfa/games.pgn
