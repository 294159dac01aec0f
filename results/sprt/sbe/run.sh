#!/bin/bash
# sbe: SeBetaExt=2 against the defaults, on one binary: .dev/clio-c44, the profile-guided build of branch c44
# (main e7d07b0 plus options c41, c42 and c44, all off by default: bench 784,276), both sides
# given h2tune's fourteen values (main's defaults since h2tune landed: bench 900,876).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-c44 --base-cmd .dev/clio-c44 --dev-name sbe --base-name main --option Hash=16 --option Threads=1 --option LowPlyWeight=4489 --option PrevEvalMul=24 --option PrevEvalMax=3515 --option LmrRefutation=943 --option ThreatOrderQueen=49615 --option ThreatOrderRook=25234 --option ThreatOrderMinor=11871 --option MvvMul=15 --option CorrMax=1094 --option CorrBonusDiv=6 --option DeeperBase=46 --option HistPruneDepth=4 --option DextLimit=5 --option IirDepth=5 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 196 --dev-option SeBetaExt=2 --state results/sprt/sbe/state.json --json results/sprt/sbe/result.json --plot results/sprt/sbe/sprt.svg --pgn results/sprt/sbe/games.pgn
