//! The legal noisy moves of a position (captures, en passant, queen promotions) without
//! generating the quiet ones: shakmaty's `capture_moves` filters the full legal list, which
//! is most of the quiescence search's generation cost.
//!
//! The moves come in the order `legal_moves` gives them, quiets left out, so a search that
//! switches to this generator visits the same tree.

use shakmaty::{attacks, Bitboard, Chess, Color, Move, MoveList, Position as _, Role, Square};

/// Whether `m` is noisy: a capture (en passant included) or a promotion to a queen.
#[inline]
pub fn is_noisy(m: &Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Replaces `moves` with the legal noisy moves of `pos`, in `legal_moves` order.
pub fn noisy_moves(pos: &Chess, moves: &mut MoveList) {
    moves.clear();
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    if pos.checkers().any() {
        // Evasions are few; the full generator decides them.
        moves.extend(pos.legal_moves().into_iter().filter(is_noisy));
        return;
    }
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let ours = board.by_color(us);

    // En passant comes first, already checked for legality (asked only when a pawn has just
    // made a double step: the list shakmaty returns is copied whole).
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }
    let ep_end = moves.len();

    // Pawn captures towards the a-file, then towards the h-file; promotions by capture to
    // every piece (all of them are captures).
    let pawns = board.pawns() & ours;
    for west in [true, false] {
        let shift: i32 = match (us, west) {
            (Color::White, true) => 7,
            (Color::White, false) => 9,
            (Color::Black, true) => -9,
            (Color::Black, false) => -7,
        };
        let file_mask = if west {
            !Bitboard::from(shakmaty::File::A)
        } else {
            !Bitboard::from(shakmaty::File::H)
        };
        let targets = shift_by(pawns & file_mask, shift) & them;
        for to in targets & !Bitboard::BACKRANKS {
            push_normal(moves, pos, Role::Pawn, offset(to, -shift), to);
        }
        for to in targets & Bitboard::BACKRANKS {
            let from = offset(to, -shift);
            let capture = board.role_at(to);
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        }
    }
    // Pushes to the last rank: the queen promotion only (underpromotions are quiet).
    let push = if us == Color::White { 8 } else { -8 };
    for to in shift_by(pawns, push) & !occupied & Bitboard::BACKRANKS {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from: offset(to, -push),
            capture: None,
            to,
            promotion: Some(Role::Queen),
        });
    }
    for from in board.knights() & ours {
        for to in attacks::knight_attacks(from) & them {
            push_normal(moves, pos, Role::Knight, from, to);
        }
    }
    for from in board.bishops() & ours {
        for to in attacks::bishop_attacks(from, occupied) & them {
            push_normal(moves, pos, Role::Bishop, from, to);
        }
    }
    for from in board.rooks() & ours {
        for to in attacks::rook_attacks(from, occupied) & them {
            push_normal(moves, pos, Role::Rook, from, to);
        }
    }
    for from in board.queens() & ours {
        for to in attacks::queen_attacks(from, occupied) & them {
            push_normal(moves, pos, Role::Queen, from, to);
        }
    }
    let pieces_end = moves.len();
    // The king takes only what no enemy piece defends.
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty() {
            push_normal(moves, pos, Role::King, king, to);
        }
    }

    // A pinned piece may move only along its pin (the king's moves are safe already).
    let blockers = pinned(pos, king, them);
    if blockers.any() {
        let mut i = ep_end;
        let mut kept = ep_end;
        while i < moves.len() {
            let m = moves[i];
            let safe = i >= pieces_end
                || match m {
                    Move::Normal { from, to, .. } => {
                        !blockers.contains(from) || attacks::aligned(from, to, king)
                    }
                    _ => true,
                };
            if safe {
                moves[kept] = m;
                kept += 1;
            }
            i += 1;
        }
        moves.truncate(kept);
    }
}

/// Pieces (of either side) that stand alone between `king` and an enemy slider aiming at it.
fn pinned(pos: &Chess, king: Square, them: Bitboard) -> Bitboard {
    let board = pos.board();
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & them {
        let b = attacks::between(king, sniper) & board.occupied();
        if !b.more_than_one() {
            blockers |= b;
        }
    }
    blockers
}

#[inline]
fn push_normal(moves: &mut MoveList, pos: &Chess, role: Role, from: Square, to: Square) {
    moves.push(Move::Normal {
        role,
        from,
        capture: pos.board().role_at(to),
        to,
        promotion: None,
    });
}

#[inline]
fn shift_by(b: Bitboard, by: i32) -> Bitboard {
    if by >= 0 {
        Bitboard(b.0 << by)
    } else {
        Bitboard(b.0 >> -by)
    }
}

#[inline]
fn offset(sq: Square, by: i32) -> Square {
    Square::new((sq as i32 + by) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn check(fen: &str) {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position");
        let want: Vec<Move> = pos.legal_moves().into_iter().filter(is_noisy).collect();
        let mut got = MoveList::new();
        noisy_moves(&pos, &mut got);
        assert_eq!(got.to_vec(), want, "{fen}");
    }

    #[test]
    fn same_moves_in_the_same_order_as_the_legal_generator() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // A pinned capturer, en passant exposing the king, promotions by push and capture.
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
            "1r2k3/P7/8/8/8/8/6p1/4K2R b K - 0 1",
            "4k3/4r3/8/8/8/4B3/4K3/8 w - - 0 1",
        ] {
            check(fen);
        }
    }
}
