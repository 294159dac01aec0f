#!/bin/bash
# data2: the 256-neuron network refitted (same shape and settings) to regenerated data (18,306
# new self-play games of the network engine at 1,000 nodes and every position of the 107,658
# games in results/, labelled by Stockfish 15.1; train.log): 7,461,831 quiet positions to fit,
# not more than the shipped network's 7,801,910 (fewer self-play games than its 31,731), against
# main's network.
# 25,000 nodes, UHO, [0, 10] nElo, seed 208. Plain release builds: .dev/clio-A embeds A.nnue,
# .dev/clio is main (bench 721,976).
# Data (kept out of git, under /work/nn): crates/nnue/scripts/gen.sh /work/nn/gen BOOK 48000
# (BOOK: results/sprt/nnue1/book.epd.xz and results/sprt/sffit/sfbook.epd.xz unpacked, stopped
# after 18,306 games: 2,091,068 positions, 1,957,719 unique, 1,752,347 labelled);
# target/release/pgn2epd /work/nn/pgn.epd <(zcat F)... for the 90 results/**/*.pgn.gz (107,658
# games, 12,555,690 positions, 9,013,671 unique, 8,206,231 labelled); label.py ... 2 on each.
# Fit: nnue-train /work/nn/gen.txt /work/nn/pgn.txt --lambda 0 --epochs 15 --threads 1 --out A.nnue
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-A --base-cmd .dev/clio --dev-name data2 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-1} --seed 208 --state results/sprt/data2/state.json --json results/sprt/data2/result.json --plot results/sprt/data2/sprt.svg --pgn results/sprt/data2/games.pgn
