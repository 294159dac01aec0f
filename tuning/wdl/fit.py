#!/usr/bin/env python3
"""Fits Clio's win-rate model (UCI_ShowWDL) to the outcomes of scored games.

The model (crates/uci/src/wdl.rs): a score of x centipawns for the side to move wins with
chance 1 / (1 + exp((a(m) - x) / b(m))) and loses with the same chance of -x, where m is the
material on the board (pawn 1, knight and bishop 3, rook 5, queen 9, both sides) clamped to
17..78 and divided by 58, and a, b are cubic polynomials in m. It is Stockfish's model since
version 16; the fit here is maximum likelihood over every scored position at once.

Input: PGN files written by arena (`--pgn`), whose engine moves carry comments
`{+0.31/12 0.021s}`: the mover's score before its move. Book moves, mate scores and the plies
before --min-ply are left out. Output: a JSON file with the coefficients ("a", "b", highest
power first, rounded to 4 decimals), the data's size, and a table of observed against
predicted outcomes by score and material, for the docs.

  python3 tuning/wdl/fit.py games.pgn --out tuning/wdl/model.json
  python3 tuning/wdl/fit.py --selftest     # recovers known coefficients from sampled data
"""

import argparse
import json
import math
import re
import sys

try:
    import numpy as np
    from scipy.optimize import minimize
except ImportError as e:  # exit 77: the calling test reports a skip (a failure under CI)
    print(f"fit.py: needs numpy and scipy ({e}); python3 -m pip install numpy scipy")
    sys.exit(77)

COMMENT = re.compile(r"^([+-]?)(\d+)\.(\d\d)/\d+ ")
VALUES = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}


def material_of(board_fen):
    return sum(VALUES.get(c.upper(), 0) for c in board_fen if c.isalpha() and c.upper() != "K")


def read_pgn(paths, min_ply):
    """(score, material, outcome for the mover: 1 win, 0.5 draw, 0 loss) per scored ply."""
    import chess.pgn

    xs, ms, ys, games = [], [], [], 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                result = game.headers.get("Result", "*")
                white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
                if white is None:
                    continue
                games += 1
                board = game.board()
                for ply, node in enumerate(game.mainline()):
                    match = COMMENT.match(node.comment or "")
                    if match and ply >= min_ply:
                        sign, whole, frac = match.groups()
                        cp = (int(whole) * 100 + int(frac)) * (-1 if sign == "-" else 1)
                        mover_white = board.turn
                        xs.append(cp)
                        ms.append(material_of(board.board_fen()))
                        ys.append(white if mover_white else 1.0 - white)
                    board.push(node.move)
    return np.array(xs, float), np.array(ms, float), np.array(ys, float), games


def poly(c, m):
    return ((c[0] * m + c[1]) * m + c[2]) * m + c[3]


def probabilities(theta, x, mat):
    m = np.clip(mat, 17, 78) / 58.0
    a, b = poly(theta[:4], m), poly(theta[4:], m)
    b = np.maximum(b, 1.0)
    win = 1.0 / (1.0 + np.exp((a - x) / b))
    loss = 1.0 / (1.0 + np.exp((a + x) / b))
    return win, np.clip(1.0 - win - loss, 1e-12, 1.0), loss


def nll(theta, x, mat, y):
    win, draw, loss = probabilities(theta, x, mat)
    eps = 1e-12
    ll = np.where(y == 1.0, np.log(win + eps), np.where(y == 0.0, np.log(loss + eps), np.log(draw)))
    return -ll.mean()


def fit(x, mat, y):
    start = np.array([0.0, 0.0, 0.0, 200.0, 0.0, 0.0, 0.0, 80.0])
    res = minimize(nll, start, args=(x, mat, y), method="Nelder-Mead",
                   options={"maxiter": 40000, "maxfev": 40000, "xatol": 1e-4, "fatol": 1e-10})
    res = minimize(nll, res.x, args=(x, mat, y), method="BFGS")
    return res.x, res.fun


def table(theta, x, mat, y):
    rows = []
    for lo, hi in [(0, 40), (41, 60), (61, 78)]:
        for s0, s1 in [(-300, -100), (-100, -25), (-25, 25), (25, 100), (100, 300)]:
            sel = (mat >= lo) & (mat <= hi) & (x >= s0) & (x < s1)
            n = int(sel.sum())
            if n == 0:
                continue
            win, draw, loss = probabilities(theta, x[sel], mat[sel])
            rows.append({
                "material": f"{lo}-{hi}", "score": f"[{s0}, {s1})", "positions": n,
                "observed": [round(float((y[sel] == v).mean()) * 1000) for v in (1.0, 0.5, 0.0)],
                "predicted": [round(float(p.mean()) * 1000) for p in (win, draw, loss)],
            })
    return rows


SAMPLE_PGN = """[Event "t"]
[Result "0-1"]

1. e4 {book} e5 {+0.31/12 0.021s} 2. Qh5 {-1.20/9 0.020s} Nc6 {+M5/3 0.001s} 0-1
"""


def selftest_pgn():
    """arena's comments: the mover's score before its move, book and mates left out."""
    import os
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write(SAMPLE_PGN)
    try:
        x, mat, y, games = read_pgn([f.name], 0)
    finally:
        os.unlink(f.name)
    got = (list(x), list(mat), list(y), games)
    want = ([31.0, -120.0], [78.0, 78.0], [1.0, 0.0], 1)
    if got != want:
        sys.exit(f"selftest: read {got} from the sample PGN, not {want}")


def selftest():
    selftest_pgn()
    rng = np.random.default_rng(2026)
    truth = np.array([-60.0, 150.0, -40.0, 180.0, 10.0, -30.0, 40.0, 60.0])
    n = 200_000
    mat = rng.integers(10, 79, n).astype(float)
    x = rng.normal(0, 180, n).round()
    win, draw, _ = probabilities(truth, x, mat)
    u = rng.random(n)
    y = np.where(u < win, 1.0, np.where(u < win + draw, 0.5, 0.0))
    theta, _ = fit(x, mat, y)
    worst = 0.0
    for mm in (20, 35, 50, 65, 78):
        m = mm / 58.0
        for got, want in ((poly(theta[:4], m), poly(truth[:4], m)),
                          (poly(theta[4:], m), poly(truth[4:], m))):
            worst = max(worst, abs(got - want) / abs(want))
    print(f"selftest: largest relative error of a(m), b(m) over m in 20..78: {worst:.3f}")
    if worst > 0.1:
        sys.exit("selftest: the fit did not recover the coefficients it sampled from")
    print("selftest: ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="*", help="arena PGN files")
    ap.add_argument("--out", help="write the model here (JSON)")
    ap.add_argument("--min-ply", type=int, default=16, help="leave out plies before this one")
    ap.add_argument("--selftest", action="store_true")
    args = ap.parse_args()
    if args.selftest:
        selftest()
        return
    if not args.pgn:
        ap.error("give PGN files, or --selftest")
    x, mat, y, games = read_pgn(args.pgn, args.min_ply)
    keep = np.abs(x) <= 2000
    x, mat, y = x[keep], mat[keep], y[keep]
    if len(x) < 1000:
        sys.exit(f"fit.py: only {len(x)} scored positions in {games} games; need 1000 or more")
    theta, loss = fit(x, mat, y)
    model = {
        "a": [round(float(v), 4) for v in theta[:4]],
        "b": [round(float(v), 4) for v in theta[4:]],
        "games": games,
        "positions": int(len(x)),
        "mean_log_loss": round(float(loss), 5),
        "min_ply": args.min_ply,
        "check": table(theta, x, mat, y),
    }
    text = json.dumps(model, indent=1) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(text, end="")
    for mm in (20, 40, 58, 78):
        m = mm / 58.0
        print(f"material {mm}: a = {poly(theta[:4], m):.1f} cp, b = {poly(theta[4:], m):.1f} cp",
              file=sys.stderr)


if __name__ == "__main__":
    main()
