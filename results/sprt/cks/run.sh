#!/bin/bash
# cks: a check is extended only when it does not lose material (SEE >= 0) or is a discovered
# check (Stockfish 10 to 12; `UseCheckExtSee`), one binary (branch cks on main 7ae37c3,
# bench 809,974 at its defaults) against its own defaults.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-cks --base-cmd /work/bins/clio-cks --dev-name cks --base-name main --option Hash=16 --option Threads=1 --dev-option UseCheckExtSee=true --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 161 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/cks/state.json --json /work/runs/cks/result.json --plot /work/runs/cks/sprt.svg --max-games 20000
