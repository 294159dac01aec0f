#!/bin/bash
# bund: the cx branch (Ethereal 12's complexity, bench 750,365) with both round-2 tunes
# (tuning/results/search2/tuned.toml and history-nodes/tuned.toml, as --dev-option, opts.txt)
# against the main (8a25e67, bench 734,114). 2,604 games on the lent 16-core machine: this
# command with CONC=15 under `timeout -s INT 510` (the state, PGN and JSON in the working tree
# sent there, brought back through $OUT); then resumed here with CONC=2 until H0.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-cx --base-cmd /work/bins/clio-8a25e67 --dev-name bund --base-name main $(cat results/sprt/bund/opts.txt) --seed 146 --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --state /work/runs/bund/state.json --pgn /work/runs/bund/games.pgn --json /work/runs/bund/result.json --plot /work/runs/bund/sprt.svg
