#!/bin/bash
# combo32: four undecided candidates together against main: passed-pawn detail 2 (pp30),
# king danger in Ethereal 12's shape fitted to Stockfish-labelled positions (kd31, its
# defender attacks now shared with the evaluation's), a killer's or the countermove's LMR a
# ply smaller (lmrk, LmrRefutation 1024), the static-eval difference as history (prev,
# PrevEvalMul 26).
cd "$(dirname "$0")/../../.."
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-c32 --base-cmd /work/bins/clio-main28 --dev-name c32 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 172 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state results/sprt/c32/state.json --json results/sprt/c32/result.json --plot results/sprt/c32/sprt.svg --pgn results/sprt/c32/games.pgn --max-games 20000
