#!/bin/bash
# combo33: four undecided search candidates together against main (bench 751,473): the quiets
# of a node whose TT move is a capture reduced a ply more (ttcap, LmrTtCapture 1024), the null
# move's reduction growing with eval - beta (nmpe, NmpEvalDiv 200, NmpEvalMax 3), reverse
# futility returning (eval + beta) / 2 (rfpblend, UseRfpBlend), and the prior countermove bonus
# (prior2, UsePriorCounter).
cd "$(dirname "$0")/../../.."
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-c33 --base-cmd /work/bins/clio-c32 --dev-name c33 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 173 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state results/sprt/c33/state.json --json results/sprt/c33/result.json --plot results/sprt/c33/sprt.svg --pgn results/sprt/c33/games.pgn --max-games 20000
