#!/bin/bash
# lowply: a low-ply history (Stockfish 17's lowPlyHistory: `[ply][piece][to]` for the first 4
# plies, updated with the main table's bonus and malus, emptied at each search) adds entry *
# LowPlyWeight / 1024 / (1 + 2 * ply) to a quiet's ordering score (ordering only), at
# `LowPlyWeight` 4096 (Stockfish's 8 against its doubled main history), against the same
# binary with it off. Both sides at `Rule50Damp=200`, so the base is node for node the main
# after r50 landed. .dev/clio-c36 is the profile-guided build of branch c36.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c36 --base-cmd .dev/clio-c36 --dev-name lowply --base-name main --option Hash=16 --option Threads=1 --option Rule50Damp=200 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 179 --dev-option LowPlyWeight=4096 --state results/sprt/lowply/state.json --json results/sprt/lowply/result.json --plot results/sprt/lowply/sprt.svg --pgn results/sprt/lowply/games.pgn
