#!/bin/bash
# combo-clock: the landed build (4683eea, /work/bins/clio-combo, bench 714,095) against main
# 39ad7f1 (/work/bins/clio-pgo, bench 734,114), both profile-guided, 2+0.02, Hash 16, UHO,
# [0, 10], seed 152, 2 games at once on the otherwise idle machine.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-combo --base-cmd /work/bins/clio-pgo \
  --dev-name combo --base-name main --option Hash=16 --option Threads=1 \
  --tc 2+0.02 --concurrency 2 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 152 \
  --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 \
  --state /work/runs/combo-clock/state.json \
  --json /work/runs/combo-clock/result.json --plot /work/runs/combo-clock/sprt.svg --max-games 20000
