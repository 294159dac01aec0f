#!/bin/bash
# deeper: Stockfish 16's doDeeperSearch / doShallowerSearch after a reduced move beats alpha
# The ideas27 binary (main, bench 753,304, with new options off by default) against its own
# defaults: an options-only run.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas27 --base-cmd /work/bins/clio-ideas27 --dev-name deeper --base-name main --option Hash=16 --option Threads=1 --dev-option UseDeeper=true --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 164 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/deeper/state.json --json /work/runs/deeper/result.json --plot /work/runs/deeper/sprt.svg --pgn /work/runs/deeper/games.pgn --max-games 20000
