#!/bin/bash
# sflmr: two Stockfish 15 late-move-reduction rules, off by default (bench 903,092 unchanged), on
# with --dev-option: a quiet's reduction a ply smaller when the parent's move to this node was its
# 8th or later (`LmrOppMoves` 8, Stockfish's `(ss-1)->moveCount > 7`), and the other moves'
# reduction a ply smaller at a node whose TT move was singularly extended (`LmrSingular` 1024,
# Stockfish's `singularQuietLMR`). The same binary on both sides, 25,000 nodes, [0, 10] nElo.
# .dev/clio-c43: plain release build of the commit that added the options; .dev/arena likewise.
# Finished (H0 after 13,348 games); the games' PGN was lost with an earlier checkout. The options
# were removed after the test: rebuild 8557f87 to replay it.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c43 --base-cmd .dev/clio-c43 --dev-name sflmr --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 200 --dev-option LmrOppMoves=8 --dev-option LmrSingular=1024 --state results/sprt/sflmr/state.json --json results/sprt/sflmr/result.json --plot results/sprt/sflmr/sprt.svg --pgn results/sprt/sflmr/games.pgn
