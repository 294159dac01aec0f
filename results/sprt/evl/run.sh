#!/bin/bash
# evl: the evaluation's weights scaled by group as SPSA found (tuning/evscale.toml, 4,000 games at
# 15,000 nodes: king attack and safe checks x1067/1024, pawn structure x916/1024, ...), written
# into weights.rs (branch evl, change.patch), against main (bench 809,974).
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-evl --base-cmd /work/bins/clio-combo3 --dev-name evl --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 160 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/evl/state.json --json /work/runs/evl/result.json --plot /work/runs/evl/sprt.svg --max-games 20000
