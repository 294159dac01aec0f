#!/bin/bash
# The same binary as ../triple/run.sh, with TextMargin 20 for dev. CONC=1, beside cuckoo; stopped
# without a decision at 2,970 games.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-triple --base-cmd /work/bins/clio-triple --dev-option TextMargin=20 --dev-name triple20 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 150 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/triple20/state.json --json /work/runs/triple20/result.json --plot /work/runs/triple20/sprt.svg --max-games 20000 --pgn /work/runs/triple20/games.pgn
