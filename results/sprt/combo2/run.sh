#!/bin/bash
# combo2: the ideas22 binary (main 714,095 node for node with its new options off) with LmrKingEvasion=1024 LmrRefutation=1024 NmpEvalMax=3 against its own defaults.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas22 --base-cmd /work/bins/clio-ideas22 --dev-name combo2 --base-name main --option Hash=16 --option Threads=1 --dev-option LmrKingEvasion=1024 --dev-option LmrRefutation=1024 --dev-option NmpEvalMax=3 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 154 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/combo2/state.json --json /work/runs/combo2/result.json --plot /work/runs/combo2/sprt.svg --max-games 20000
