#!/bin/bash
# kd31: king danger (Ethereal 12's shape: a danger sum of attackers by type, zone attacks,
# weak zone squares, safe checks by type, the defender's shelter pawns, no queen, a constant;
# its square in the middlegame, itself in the endgame), fitted by texel with king_attack and
# safe_check on 1.57M positions labelled by Stockfish 15.1 at depth 6; against main.
cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-kd --base-cmd /work/bins/clio-main28 --dev-name kd31 --base-name main --option Hash=16 --option Threads=1 --nodes 25000 --concurrency ${CONC:-1} --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 171 --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 --state /work/runs/kd31/state.json --json /work/runs/kd31/result.json --plot /work/runs/kd31/sprt.svg --pgn /work/runs/kd31/games.pgn --max-games 20000
