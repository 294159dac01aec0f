import chess.pgn, gzip, re, sys, json
out=[]
for path in sys.argv[1:]:
    f=gzip.open(path,'rt')
    while True:
        g=chess.pgn.read_game(f)
        if g is None: break
        cw = g.headers['White']=='clio'
        res=g.headers['Result']
        lost = (res=='0-1' and cw) or (res=='1-0' and not cw)
        if not lost: continue
        clio_last=None
        board=g.board()
        for n in g.mainline():
            mover_white = board.turn
            m=re.match(r'\s*([+-]?[\d.]+|[+-]?M\d+)/',n.comment)
            fen_before=board.fen()
            board.push(n.move)
            if not m: continue
            s=m.group(1)
            v = (100000 if not s.startswith('-') else -100000) if 'M' in s else float(s)*100
            is_clio = (mover_white==cw)
            if is_clio: clio_last=v
            else:
                if v>=100 and clio_last is not None and clio_last>-30:
                    out.append(dict(fen=fen_before, eth=v, clio=clio_last, move=board.fullmove_number, file=path, round=g.headers['Round']))
                    break
json.dump(out,open('div.json','w'),indent=0)
print(len(out))
