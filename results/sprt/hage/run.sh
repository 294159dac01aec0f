#!/bin/bash
# hage: the main history keeps 3/4 of each entry at the start of every search (HistAgeKeep 768),
# so the last moves' statistics outweigh older ones.
# .dev/clio-c38 is the profile-guided build of branch c38 (main 784,276 plus three options, off by
# default); the base is the same binary with the option off, node for node main 784,276.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c38 --base-cmd .dev/clio-c38 --dev-name hage --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 183 --dev-option HistAgeKeep=768 --state results/sprt/hage/state.json --json results/sprt/hage/result.json --plot results/sprt/hage/sprt.svg --pgn results/sprt/hage/games.pgn
