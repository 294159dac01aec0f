//! Static exchange evaluation: the material outcome of the exchange a move starts on its
//! destination square, both sides always recapturing with their least valuable attacker
//! (the swap algorithm, as in Stockfish's `Position::see_ge`).

use shakmaty::{attacks, Bitboard, Chess, Color, Move, Position as _, Role, Square};

/// Exchange values of the pieces (pawn, knight, bishop, rook, queen, king).
pub fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

fn least_valuable(pos: &Chess, attackers: Bitboard) -> Option<(Role, Square)> {
    let board = pos.board();
    Role::ALL.into_iter().find_map(|role| {
        (attackers & board.by_role(role))
            .first()
            .map(|sq| (role, sq))
    })
}

/// Whether the exchange started by `m` wins at least `threshold` (in `see_value` units).
/// Castling never wins or loses material. Pins are not considered.
pub fn see_ge(pos: &Chess, m: &Move, threshold: i32) -> bool {
    let (from, to) = match *m {
        Move::Castle { .. } | Move::Put { .. } => return 0 >= threshold,
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
    };
    let board = pos.board();
    let captured = m.capture().map_or(0, see_value);
    let promo_gain = m
        .promotion()
        .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
    let mut swap = captured + promo_gain - threshold;
    if swap < 0 {
        return false;
    }
    let moved = m.promotion().unwrap_or(m.role());
    swap = see_value(moved) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    if let Move::EnPassant { .. } = m {
        occupied ^= Bitboard::from(Square::from_coords(to.file(), from.rank()));
    }
    let bishops = board.bishops_and_queens();
    let rooks = board.rooks_and_queens();
    let mut attackers = (board.attacks_to(to, Color::White, occupied)
        | board.attacks_to(to, Color::Black, occupied))
        & occupied;
    let mut stm = pos.turn();
    let mut result = true;

    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & board.by_color(stm);
        let Some((role, sq)) = least_valuable(pos, ours) else {
            break;
        };
        result = !result;
        if role == Role::King {
            // The king may only recapture if the square is no longer defended.
            return if (attackers & board.by_color(!stm)).any() {
                !result
            } else {
                result
            };
        }
        swap = see_value(role) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied ^= Bitboard::from(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & rooks;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_fen, Move16};

    fn see_exact(fen: &str, uci: &str) -> i32 {
        let pos = parse_fen(fen).expect("test FEN");
        let m = Move16::from_uci(uci, &pos).expect("test move is legal");
        // The exact value is the largest threshold the move still meets.
        let mut lo: i32 = -3000;
        let mut hi = 3000;
        while lo < hi {
            let mid = (lo + hi + 1).div_euclid(2);
            if see_ge(&pos, &m, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    #[test]
    fn hand_worked_exchanges() {
        // Rxe5: pawn undefended, rook wins a pawn.
        assert_eq!(
            see_exact("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Nxe5 against pawn defended by a knight... d6 pawn recaptures: N for P, -220.
        assert_eq!(
            see_exact(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 320
        );
        // Queen takes a pawn defended by a pawn: loses Q for P.
        assert_eq!(see_exact("4k3/8/3p4/4p3/8/8/8/4K2Q w - - 0 1", "h1e4"), 0);
        assert_eq!(
            see_exact("4k3/8/3p4/4p3/4Q3/8/8/4K3 w - - 0 1", "e4e5"),
            100 - 950
        );
        // Pawn takes a defended knight: wins N, loses P.
        assert_eq!(see_exact("4k3/8/3n4/4P3/8/8/8/4K3 w - - 0 1", "e5d6"), 320);
        assert_eq!(
            see_exact("4k3/2p5/3n4/4P3/8/8/8/4K3 w - - 0 1", "e5d6"),
            320 - 100
        );
        // X-ray: rook behind rook on the e-file; Rxe5 dxe5 Rxe5 nets P+P-R.
        assert_eq!(
            see_exact("4k3/8/3p4/4p3/8/8/4R3/4RK2 w - - 0 1", "e2e5"),
            100 - 500 + 100
        );
        // En passant wins a pawn.
        assert_eq!(see_exact("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // The king recaptures an undefended rook, but not one an x-raying rook defends.
        assert_eq!(see_exact("4k3/8/8/8/8/4r3/3K4/4R3 b - - 0 1", "e3e1"), 0);
        assert_eq!(
            see_exact("4r1k1/8/8/8/8/4r3/3K4/4R3 b - - 0 1", "e3e1"),
            500
        );
        // Quiet move to an attacked square loses the piece.
        assert_eq!(see_exact("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1e3"), 0);
        assert_eq!(see_exact("4k3/8/8/3p4/8/8/8/1B2K3 w - - 0 1", "b1c2"), 0);
        assert_eq!(see_exact("4k3/8/3p4/8/8/8/8/2B1K3 w - - 0 1", "c1e3"), 0);
        assert_eq!(see_exact("4k3/8/3p4/8/8/8/8/1N2K3 w - - 0 1", "b1c3"), 0);
        assert_eq!(see_exact("4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "b1c3"), 0);
        assert_eq!(see_exact("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3e4"), -320);
    }
}
