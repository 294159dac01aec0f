import chess, chess.engine, json
div=json.load(open('div.json'))
def sc(info):
    return info['score'].relative.score(mate_score=3000)
sf=chess.engine.SimpleEngine.popen_uci('/usr/games/stockfish'); sf.configure({'Hash':64,'Threads':1})
cl=chess.engine.SimpleEngine.popen_uci('/work/bins/clio-main28'); cl.configure({'Hash':16})
et=chess.engine.SimpleEngine.popen_uci('/usr/games/ethereal-chess'); et.configure({'Hash':16})
rows=[]
for i,d in enumerate(div):
    b=chess.Board(d['fen'])
    r=dict(d)
    r['sf']=sc(sf.analyse(b,chess.engine.Limit(depth=18)))
    r['cl03']=sc(cl.analyse(b,chess.engine.Limit(time=0.3)))
    r['cl3']=sc(cl.analyse(b,chess.engine.Limit(time=3)))
    r['et03']=sc(et.analyse(b,chess.engine.Limit(time=0.3)))
    rows.append(r)
    print(i, r['move'], 'sf',r['sf'],'cl03',r['cl03'],'cl3',r['cl3'],'et03',r['et03'], flush=True)
json.dump(rows,open('ana.json','w'),indent=0)
for e in (sf,cl,et): e.quit()
