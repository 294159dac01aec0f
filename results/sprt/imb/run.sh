#!/bin/bash
# imb: material imbalance (Stockfish's quadratic table: 20 own-by-own and 15 own-by-theirs
# products of piece counts), its weights fitted by texel with every other group frozen on the
# 8,200 committed gauntlet games (branch imb), against main 9a348c5 (bench 753,304), both
# profile-guided builds.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-imb --base-cmd /work/bins/clio-main26 --dev-name imb --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 162 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/imb/state.json --json /work/runs/imb/result.json --plot /work/runs/imb/sprt.svg --max-games 20000
