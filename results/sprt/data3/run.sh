#!/bin/bash
# data3: the 256-neuron network refitted (same shape and settings) to more data than the shipped
# network's: 48,000 self-play games of the network engine at 1,000 nodes from the 24,000
# random-walk openings of nnue1 and sffit (data2's 18,306 and 29,694 more), 24,000 more from
# 12,000 new random-walk openings (book2), and every position of the 107,658 games in results/,
# labelled by Stockfish 15.1 (train.log), against main's network.
# 25,000 nodes, UHO, [0, 10] nElo, seed 210. Plain release builds: .dev/clio-A embeds A.nnue (crates/search/nets/clio-3.nnue since 48070d6),
# .dev/clio is main (bench 721,976).
# Data (kept out of git, under /work/nn):
#   crates/nnue/scripts/gen.sh /work/nn/gen BOOK 48000   (BOOK: results/sprt/nnue1/book.epd.xz
#     and results/sprt/sffit/sfbook.epd.xz unpacked); gen.txt labels its first 2,091,068 lines
#     (data2's), gen-new.txt the rest;
#   arena openings --engine clio --nodes 2000 --plies 10 --count 24000 --min-cp -120 --max-cp 120
#     --seed 5151 --out book2.epd; crates/nnue/scripts/gen.sh /work/nn/gen2 book2.epd 24000;
#   pgn.txt as data2's (pgn2epd on the 90 results/**/*.pgn.gz); label.py ... 2 on each.
# Fit: nnue-train /work/nn/gen.txt /work/nn/gen-new.txt /work/nn/gen2.txt /work/nn/pgn.txt
#   --lambda 0 --epochs 15 --threads 2 --out A.nnue
cd "$(dirname "$0")/../../.."
exec .dev/arena sprt --dev-cmd .dev/clio-A --base-cmd .dev/clio --dev-name data3 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --max-games 20000 --concurrency ${CONC:-2} --seed 210 --state results/sprt/data3/state.json --json results/sprt/data3/result.json --plot results/sprt/data3/sprt.svg --pgn results/sprt/data3/games.pgn
