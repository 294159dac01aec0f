#!/bin/bash
cd /work/nn
exec /work/main/target/release/arena match --engine name=sfa cmd=/usr/games/stockfish --engine name=sfb cmd=/usr/games/stockfish --option Threads=1 --option Hash=16 --nodes 3000 --concurrency 2 --openings /work/nn/book.epd --order sequential --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --games 32000 --state /work/nn/gen-state.json --pgn /work/nn/sf.pgn --rating-interval 0
