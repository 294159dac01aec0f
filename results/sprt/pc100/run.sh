#!/bin/bash
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-ideas14b --base-cmd /work/bins/clio-ideas14b --dev-name pc100 --base-name main --dev-option UseProbcut=true --dev-option ProbcutMargin=100 --option Hash=16 --option Threads=1 --nodes 100000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 143 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/pc100/state.json --json /work/runs/pc100/result.json --plot /work/runs/pc100/sprt.svg --max-games 20000
