#!/bin/bash
# nnue2: the distilled network (crates/search/nets/clio-1.nnue; crates/nnue/README.md, train.log)
# on the same binary against the hand-written evaluation, 25,000 nodes, UHO, [0, 10] nElo.
# As played: .dev/clio-full was branch nnue2 before UseNnue's default was turned on, so dev got
# --dev-option UseNnue=true and base the default (off). With a build of the landed commit (the
# network on by default) give base --base-option UseNnue=false instead.
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-full --base-cmd .dev/clio-full --dev-name nnue --base-name hce --dev-option UseNnue=true --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 203 --state results/sprt/nnue2/state.json --json results/sprt/nnue2/result.json --plot results/sprt/nnue2/sprt.svg
