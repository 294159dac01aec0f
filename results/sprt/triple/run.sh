#!/bin/bash
# The binary: main (d1de242) with ../cuckoo/change.patch and change.patch applied, a plain release
# build; TextMargin 0 and UseUpcomingRep off by default, where it searches as main does (bench
# 734,114). CONC=1, beside cuckoo; stopped without a decision at 1,778 games.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-triple --base-cmd /work/bins/clio-triple --dev-option TextMargin=50 --dev-name triple --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 149 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/triple/state.json --json /work/runs/triple/result.json --plot /work/runs/triple/sprt.svg --max-games 20000 --pgn /work/runs/triple/games.pgn
