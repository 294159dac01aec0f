#!/usr/bin/env python3
"""Rewrites weights.rs with each group of weights scaled by a tuned EvX/1024 (scales.patch's groups).

Usage: apply.py crates/search/src/eval/weights.rs tuning/results/evscale/tuned.toml
Each weight is scaled and rounded; scales.patch scales each group's sum, so the two differ by
rounding only.
"""
import re, sys, tomllib
weights_path, tuned_path = sys.argv[1], sys.argv[2]
tuned = tomllib.load(open(tuned_path, 'rb'))
groups = {
    'EvMobility': ['mobility'],
    'EvKingAttack': ['king_attack', 'safe_check'],
    'EvThreats': ['threats', 'hanging'],
    'EvPassed': ['passed', 'passed_free', 'passed_king', 'king_pawn_distance'],
    'EvPieces': ['outpost', 'minor_behind_pawn', 'bishop_pair', 'bishop_pawns', 'rook_open_file',
                 'rook_semi_open_file', 'rook_seventh'],
    'EvShield': ['shield_near', 'shield_far'],
    'EvPawns': ['doubled', 'connected', 'isolated', 'backward'],
}
text = open(weights_path).read()
def scale_line(line, k):
    def one(m):
        a, b = int(m.group(1)), int(m.group(2))
        return f's({round(a * k / 1024)}, {round(b * k / 1024)})'
    return re.sub(r's\((-?\d+), (-?\d+)\)', one, line)
out = []
seen = set()
for line in text.split('\n'):
    m = re.match(r'    (\w+): ', line)
    if m:
        for g, fields in groups.items():
            if m.group(1) in fields:
                line = scale_line(line, round(tuned[g]))
                seen.add(m.group(1))
    m = re.match(r'pub const TEMPO: i32 = (\d+);', line)
    if m:
        line = f'pub const TEMPO: i32 = {round(tuned["EvTempo"])};'
        seen.add('TEMPO')
    out.append(line)
missing = [f for fs in groups.values() for f in fs if f not in seen]
assert not missing, missing
open(weights_path, 'w').write('\n'.join(out))
