#!/bin/bash
# unspsa: do the 18 search constants SPSA tuned at 15,000 nodes (tuning/search.toml, landed at
# +19.1 Elo at 25,000 nodes) still hold at 100,000 nodes a move? The tip (bench 784,276,
# profile-guided .dev/clio-lp) with the 18 set back to their values before that tune (dev)
# against its defaults (base), at 100,000 nodes.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-lp --base-cmd .dev/clio-lp --dev-name unspsa --base-name main --option Hash=16 --option Threads=1 --nodes 100000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 184 \
  --dev-option LmrBase=75 --dev-option LmrDiv=225 --dev-option LmrHistDiv=8192 --dev-option LmpBase=3 \
  --dev-option RfpDepth=7 --dev-option RfpMargin=80 --dev-option FpDepth=8 --dev-option FpBase=100 \
  --dev-option FpMul=100 --dev-option SeeQuietMul=60 --dev-option SeeNoisyMul=25 \
  --dev-option HistPruneMargin=2500 --dev-option SeMargin=32 --dev-option DextMargin=20 \
  --dev-option AspWindow=25 --dev-option QsFutilityMargin=150 --dev-option QsSeeMargin=0 \
  --dev-option GoodCaptureSee=-50 \
  --state results/sprt/unspsa/state.json --json results/sprt/unspsa/result.json --plot results/sprt/unspsa/sprt.svg --pgn results/sprt/unspsa/games.pgn
