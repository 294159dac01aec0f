#!/bin/bash
# r50: the static eval damped towards a draw as the fifty-move count grows, eval * (200 -
# halfmoves) / 200 (Stockfish's shuffling damp; `Rule50Damp`, 0 off), against the same binary
# with the option off (bench 751,473, node for node the main). .dev/clio-c34 is the profile-
# guided build of branch c34 (`bash ci/pgo-build.sh .dev/clio-c34`). The first 1,982 games were
# played on a 16-core device machine (4, 8 and 15 at once), the rest here.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c34 --base-cmd .dev/clio-c34 --dev-name r50 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 174 --dev-option Rule50Damp=200 --state results/sprt/r50/state.json --json results/sprt/r50/result.json --plot results/sprt/r50/sprt.svg --pgn results/sprt/r50/games.pgn
