cd /work/main
exec /work/bins/arena sprt --dev-cmd /work/bins/clio-speed --base-cmd /work/bins/clio-c3 \
  --dev-name speed --base-name main --option Hash=16 --option Threads=1 \
  --tc 2+0.02 --concurrency 2 --elo0 0 --elo1 10 --openings openings/clio-uho.epd --order random --seed 134 \
  --resign movecount=3,score=600 --draw movenumber=34,movecount=8,score=20 \
  --state /work/runs/speed-clock/state.json \
  --json /work/runs/speed-clock/result.json --plot /work/runs/speed-clock/sprt.svg --max-games 20000
