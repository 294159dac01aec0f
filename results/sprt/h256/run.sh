#!/bin/bash
# h256: the network's hidden layer doubled, 128 -> 256 neurons a side, trained on the same
# 7.8 M Stockfish-labelled positions with the same settings (train.log), against main's
# 128-neuron network. 25,000 nodes, UHO, [0, 10] nElo, seed 204. Both plain release builds:
# .dev/clio-h256 is branch h256, .dev/clio-nn is main 9cf469c (bench 935,985).
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-h256 --base-cmd .dev/clio-nn --dev-name h256 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 204 --state results/sprt/h256/state.json --json results/sprt/h256/result.json --plot results/sprt/h256/sprt.svg
