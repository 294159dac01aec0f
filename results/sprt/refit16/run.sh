#!/bin/bash
cd /work/main
exec /work/bins/arena match --engine name=a cmd=/work/bins/clio-8a25e67 --engine name=b cmd=/work/bins/clio-8a25e67 option.AspWindow=25 --option Hash=16 --option Threads=1 --nodes 10000 --concurrency 2 --openings /work/runs/data16/book16.epd --order sequential --rounds 10000 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/data16/state.json --pgn /work/runs/data16/games.pgn
