#!/bin/bash
# The binary: main (d1de242) with change.patch applied, built by ci/pgo-build.sh; UseUpcomingRep
# is off by default, where it searches as main does (bench 734,114). One game at a time after the
# first 178 games (CONC=2), beside the triple runs; stopped without a decision at 5,198 games.
# Resumed in the twentieth session, two at once (CONC=2) on the otherwise idle machine; stopped
# without a decision at 16,972 games. land.patch: the same search, tests moved, ready to land.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-cuckoo --base-cmd /work/bins/clio-cuckoo --dev-option UseUpcomingRep=true --dev-name cuckoo --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 148 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/cuckoo/state.json --json /work/runs/cuckoo/result.json --plot /work/runs/cuckoo/sprt.svg --max-games 20000 --pgn /work/runs/cuckoo/games.pgn
