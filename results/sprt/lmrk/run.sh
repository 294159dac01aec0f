#!/bin/bash
# lmrk: a killer or the countermove reduced one ply less in LMR (Ethereal's R -= stage < STAGE_QUIET)
# The ideas27 binary (main, bench 753,304, with new options off by default) against its own
# defaults: an options-only run.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas27 --base-cmd /work/bins/clio-ideas27 --dev-name lmrk --base-name main --option Hash=16 --option Threads=1 --dev-option LmrKiller=1024 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 163 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/lmrk/state.json --json /work/runs/lmrk/result.json --plot /work/runs/lmrk/sprt.svg --pgn /work/runs/lmrk/games.pgn --max-games 20000
