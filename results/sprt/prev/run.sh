#!/bin/bash
# prev: Stockfish 16.1's static-eval difference: the quiet move that led to a node gains main history by how far it lowered the mover's eval
# The ideas27b binary (main, bench 753,304, with new options off by default) against its own
# defaults: an options-only run.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas27b --base-cmd /work/bins/clio-ideas27b --dev-name prev --base-name main --option Hash=16 --option Threads=1 --dev-option PrevEvalMul=26 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 166 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/prev/state.json --json /work/runs/prev/result.json --plot /work/runs/prev/sprt.svg --pgn /work/runs/prev/games.pgn --max-games 20000
