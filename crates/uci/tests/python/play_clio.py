#!/usr/bin/env python3
"""An independent UCI client: python-chess plays a short game against clio.

Usage: play_clio.py ENGINE [PLIES]

Exit codes: 0 = every move legal and every analysis gave a score; 1 = a failure (printed);
77 = python-chess is not installed (the caller skips, printing why).
"""
import sys

try:
    import chess
    import chess.engine
except ImportError as exc:  # the Rust test reports the skip
    print(f"python-chess not available: {exc}")
    sys.exit(77)


def main() -> int:
    engine_path = sys.argv[1]
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(engine_path, timeout=10) as engine:
        name = engine.id.get("name", "")
        if not name.startswith("Clio"):
            print(f"unexpected engine name {name!r}")
            return 1
        for option in ("Hash", "Threads", "Move Overhead", "Clear Hash"):
            if option not in engine.options:
                print(f"option {option} not declared")
                return 1
        engine.configure({"Hash": 8, "Move Overhead": 20})
        scores = 0
        while not board.is_game_over(claim_draw=True) and board.ply() < plies:
            limit = (chess.engine.Limit(time=0.05) if board.ply() % 2
                     else chess.engine.Limit(white_clock=5, black_clock=5,
                                             white_inc=0.05, black_inc=0.05))
            result = engine.play(board, limit, info=chess.engine.INFO_SCORE)
            if result.move is None or result.move not in board.legal_moves:
                print(f"illegal or missing move {result.move} in {board.fen()}")
                return 1
            if result.info.get("score") is not None:
                scores += 1
            board.push(result.move)
        # One explicit analysis with a depth limit: the score must be there.
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        if "score" not in info or info.get("depth", 0) < 1:
            print(f"analysis lacks a score or depth: {info}")
            return 1
        # go searchmoves (python-chess's root_moves): only the given root moves are searched.
        start = chess.Board()
        allowed = [chess.Move.from_uci("b1c3"), chess.Move.from_uci("a2a3")]
        for depth in (1, 6):
            played = engine.play(start, chess.engine.Limit(depth=depth), root_moves=allowed)
            if played.move not in allowed:
                print(f"root_moves {allowed} at depth {depth}: played {played.move}")
                return 1
        only = chess.Move.from_uci("g1h3")
        info = engine.analyse(start, chess.engine.Limit(depth=5), root_moves=[only])
        if not info.get("pv") or info["pv"][0] != only:
            print(f"root_moves [{only}]: analysis {info}")
            return 1
        # MultiPV: python-chess's analyse(multipv=3) gets three ranked lines.
        multi = engine.analyse(start, chess.engine.Limit(depth=6), multipv=3)
        firsts = [line["pv"][0] for line in multi if line.get("pv")]
        if len(multi) != 3 or len(set(firsts)) != 3 or any("score" not in l for l in multi):
            print(f"multipv=3: {multi}")
            return 1
        # UCI_ShowWDL: python-chess reads `wdl W D L` into info["wdl"], summing to 1000.
        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(start, chess.engine.Limit(depth=5))
        wdl = info.get("wdl")
        if wdl is None or wdl.white().total() != 1000 or not 0 < wdl.white().expectation() < 1:
            print(f"UCI_ShowWDL: analysis {info}")
            return 1
        engine.configure({"UCI_ShowWDL": False})
        # UCI_LimitStrength with UCI_Elo: a legal move within the level's node budget.
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1350})
        played = engine.play(start, chess.engine.Limit(depth=20), info=chess.engine.INFO_ALL)
        if played.move not in start.legal_moves or played.info.get("nodes", 0) > 600:
            print(f"UCI_Elo 1350: {played}")
            return 1
        engine.configure({"UCI_LimitStrength": False})
        if scores == 0:
            print("no move came with a score")
            return 1
        print(f"python-chess: {board.ply()} plies, {scores} moves with a score, "
              f"final score {info['score']}, result {board.result(claim_draw=True)}")
        print(board.fen())
    return 0


if __name__ == "__main__":
    sys.exit(main())
