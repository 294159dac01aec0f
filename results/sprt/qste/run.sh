#!/bin/bash
# qste: the ideas22 binary (main 714,095 node for node with its new options off) with UseQsTtEval=true against its own defaults.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas22 --base-cmd /work/bins/clio-ideas22 --dev-name qste --base-name main --option Hash=16 --option Threads=1 --dev-option UseQsTtEval=true --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 153 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/qste/state.json --json /work/runs/qste/result.json --plot /work/runs/qste/sprt.svg --max-games 20000
