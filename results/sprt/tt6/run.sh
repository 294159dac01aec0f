#!/bin/bash
# tt6: transposition-table buckets of six 10-byte slots (an 8-byte entry and a 16-bit key check
# sealed by a hash of the entry) in place of four 16-byte slots: half again as many entries in
# the same memory, as Stockfish and Ethereal pack theirs. Played with Hash=1 at 25,000 nodes so
# that the table is under the pressure 16 MB is under at 10+0.1 (nodes a move over entries:
# 25,000 / 65,536 = 0.38 against 0.4-0.6 there). tt6 (branch tt6) against main (93e86ed,
# bench 809,974).
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-tt6 --base-cmd /work/bins/clio-combo3 --dev-name tt6 --base-name main --option Hash=1 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 158 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/tt6/state.json --json /work/runs/tt6/result.json --plot /work/runs/tt6/sprt.svg --max-games 20000
