#!/usr/bin/env python3
# Usage: python3 results/gauntlet/pgnstats.py <(zcat results/gauntlet/<run>/games.pgn.gz)
# Mean think time (all moves) and mean depth (moves with a non-mate score) per engine, from
# arena's PGN comments {score/depth time}; every move carries one comment.
import re,sys,collections
txt=open(sys.argv[1]).read()
t=collections.defaultdict(list); d=collections.defaultdict(list)
for g in txt.split('[Event ')[1:]:
    w=re.search(r'\[White "([^"]+)"',g).group(1); b=re.search(r'\[Black "([^"]+)"',g).group(1)
    fen=re.search(r'\[FEN "([^"]+)"',g)
    stm = fen.group(1).split()[1] if fen else 'w'
    body=g.split('\n\n',1)[1]
    for i,c in enumerate(re.findall(r'\{([^}]*)\}',body)):
        name = w if (i%2==0)==(stm=='w') else b
        m=re.match(r'\s*([+-]?M?[\d.]+)/(\d+)\s+([\d.]+)s',c)
        if not m: continue
        t[name].append(float(m.group(3)))
        if 'M' not in m.group(1): d[name].append(int(m.group(2)))
for n in t: print(n, len(t[n]), 'moves', round(sum(t[n])/len(t[n]),3),"s", round(sum(d[n])/len(d[n]),1),"depth (non-mate)")
