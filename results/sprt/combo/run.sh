#!/bin/bash
# The bundle of the three undecided candidates with the most games, against main: cuckoo
# (land.patch, UseUpcomingRep on), cxe (Ethereal 12's complexity) and ocb (opposite-coloured
# bishop scaling), applied together to main 39ad7f1 and built by ci/pgo-build.sh (bench 714,095);
# the base is main's own PGO build (bench 734,114). Two games at once on the otherwise idle machine.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-combo --base-cmd /work/bins/clio-pgo --dev-name combo --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 151 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/combo/state.json --json /work/runs/combo/result.json --plot /work/runs/combo/sprt.svg --max-games 20000 --pgn /work/runs/combo/games.pgn
