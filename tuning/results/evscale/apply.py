#!/usr/bin/env python3
"""Rewrites weights.rs with each group of weights scaled as an evscale campaign tuned it.

Usage: apply.py crates/search/src/eval/weights.rs TUNED.toml
Round 1 (tuning/evscale.toml): one scale EvX/1024 a group, and the tempo EvTempo.
Round 2 (tuning/evscale2.toml): EvXMg/1024 for a group's middlegame halves and EvXEg/1024 for its
endgame halves, and EvMaterialMg / EvMaterialEg for the knight to queen values.
Each weight is scaled and rounded; the scales patches scale each group's sum, so the two differ
by rounding only.
"""
import re, sys, tomllib
weights_path, tuned_path = sys.argv[1], sys.argv[2]
tuned = tomllib.load(open(tuned_path, 'rb'))
groups = {
    'Mobility': ['mobility'],
    'KingAttack': ['king_attack', 'safe_check'],
    'Threats': ['threats', 'hanging'],
    'Passed': ['passed', 'passed_free', 'passed_king', 'king_pawn_distance'],
    'Pieces': ['outpost', 'minor_behind_pawn', 'bishop_pair', 'bishop_pawns', 'rook_open_file',
               'rook_semi_open_file', 'rook_seventh'],
    'Shield': ['shield_near', 'shield_far'],
    'Pawns': ['doubled', 'connected', 'isolated', 'backward'],
}
split = 'EvMobilityMg' in tuned
if split:
    groups['Material'] = ['material']


def scales(g):
    if split:
        return round(tuned[f'Ev{g}Mg']), round(tuned[f'Ev{g}Eg'])
    k = round(tuned[f'Ev{g}'])
    return k, k


def scale(km, ke):
    def one(m):
        a, b = int(m.group(1)), int(m.group(2))
        return f's({round(a * km / 1024)}, {round(b * ke / 1024)})'
    return one


text = open(weights_path).read()
out = []
seen = set()
for line in text.split('\n'):
    m = re.match(r'    (\w+): ', line)
    if m:
        for g, fields in groups.items():
            if m.group(1) not in fields:
                continue
            km, ke = scales(g)
            parts = re.findall(r's\(-?\d+, -?\d+\)', line)
            if g == 'Material':
                # Pawn, knight, bishop, rook, queen, king: only the four pieces are scaled.
                assert len(parts) == 6, line
                new = [parts[0]] + [re.sub(r's\((-?\d+), (-?\d+)\)', scale(km, ke), p)
                                    for p in parts[1:5]] + [parts[5]]
                line = '    material: [' + ', '.join(new) + '],'
            else:
                line = re.sub(r's\((-?\d+), (-?\d+)\)', scale(km, ke), line)
            seen.add(m.group(1))
    m = re.match(r'pub const TEMPO: i32 = (\d+);', line)
    if m and 'EvTempo' in tuned:
        line = f'pub const TEMPO: i32 = {round(tuned["EvTempo"])};'
        seen.add('TEMPO')
    out.append(line)
missing = [f for fs in groups.values() for f in fs if f not in seen]
assert not missing, missing
open(weights_path, 'w').write('\n'.join(out))
