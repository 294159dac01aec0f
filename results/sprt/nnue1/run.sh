#!/bin/bash
# Branch nnue (8c3a600) built to /work/bins/clio-n1, its network trained by train.log; the same binary
# on both sides, UseNnue=true for dev. Capped at 200 games as a first look; the SPRT decided (H0)
# after 146, before the cap.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-n1 --base-cmd /work/bins/clio-n1 --dev-name nnue --base-name hce --dev-option UseNnue=true --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-2} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed ${SEED:-147} --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/n1q/state.json --json /work/runs/n1q/result.json --plot /work/runs/n1q/sprt.svg --max-games 200 --pgn /work/runs/n1q/games.pgn
