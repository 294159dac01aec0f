cd /work/main
exec /work/bins/arena match --engine name=a cmd=/work/bins/clio-main28 --engine name=b cmd=/work/bins/clio-main28 option.HistBonusMul=293 \
  --option Hash=16 --option Threads=1 --nodes 10000 --concurrency ${CONC:-2} \
  --openings /work/runs/data30/sfbook.epd --order sequential \
  --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 \
  --games 16000 --state /work/runs/data30/state.json --pgn /work/runs/data30/games.pgn
