#!/bin/bash
# lmr2: late move reductions from depth 2 instead of 3 (Stockfish's depth >= 2)
# The ideas27 binary (main, bench 753,304, with new options off by default) against its own
# defaults: an options-only run.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas27 --base-cmd /work/bins/clio-ideas27 --dev-name lmr2 --base-name main --option Hash=16 --option Threads=1 --dev-option LmrMinDepth=2 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 165 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/lmr2/state.json --json /work/runs/lmr2/result.json --plot /work/runs/lmr2/sprt.svg --pgn /work/runs/lmr2/games.pgn --max-games 20000
