#!/bin/bash
# h2tune: the fourteen history-family constants SPSA tuned at 15,000 nodes (tuning/history2.toml,
# tuning/results/history2/tuned.toml) against the defaults, on one binary: .dev/clio-lp, the
# profile-guided build of main e7d07b0 (bench 784,276).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-lp --base-cmd .dev/clio-lp --dev-name h2tune --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 195 --dev-option LowPlyWeight=4489 --dev-option PrevEvalMul=24 --dev-option PrevEvalMax=3515 --dev-option LmrRefutation=943 --dev-option ThreatOrderQueen=49615 --dev-option ThreatOrderRook=25234 --dev-option ThreatOrderMinor=11871 --dev-option MvvMul=15 --dev-option CorrMax=1094 --dev-option CorrBonusDiv=6 --dev-option DeeperBase=46 --dev-option HistPruneDepth=4 --dev-option DextLimit=5 --dev-option IirDepth=5 --state results/sprt/h2tune/state.json --json results/sprt/h2tune/result.json --plot results/sprt/h2tune/sprt.svg --pgn results/sprt/h2tune/games.pgn
