//! The legal noisy moves of a position (captures, en passant, queen promotions) without
//! generating the quiet ones: shakmaty's `capture_moves` filters the full legal list, which
//! is most of the quiescence search's generation cost. And the legal quiet moves without the
//! noisy ones, for the main search's picker, which generates the noisy moves first and the
//! quiets only when no capture has cut the node.
//!
//! The moves come in the order `legal_moves` gives them, the other kind left out, so a search
//! that switches to these generators visits the same tree.

use arrayvec::ArrayVec;
use shakmaty::{
    attacks, Bitboard, CastlingSide, Chess, Color, Move, MoveList, Position as _, Role, Square,
};

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

/// Moves the noisy moves of `moves` to its front, keeping their order, by swapping each with the
/// first quiet after those already moved (the quiets' order is not kept), and returns their
/// number. This is the order the picker has always searched its quiets in when their scores tie,
/// so [`quiet_moves`] reproduces it.
pub fn partition_noisy(moves: &mut MoveList) -> usize {
    let mut n = 0;
    for i in 0..moves.len() {
        if is_noisy(&moves[i]) {
            moves.swap(n, i);
            n += 1;
        }
    }
    n
}

/// Appends the legal quiet moves of `pos` (every legal move [`is_noisy`] rejects: pawn pushes
/// and underpromotions by push, piece and king moves to empty squares, castling) to `moves`,
/// in the order [`partition_noisy`] leaves them after the noisy moves of `legal_moves`,
/// without generating the noisy moves' list.
///
/// That order follows from `legal_moves`' alone: `partition_noisy` keeps the quiets met so
/// far as a queue, appending each quiet and, at each noisy move, sending the queue's first
/// quiet to its back. The generator walks the legal moves in shakmaty's order (pawn captures and
/// en passant come first, while the queue is empty) and does the same.
pub fn quiet_moves(pos: &Chess, moves: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    if pos.checkers().any() {
        // Evasions are few; the full generator decides them.
        let mut all = pos.legal_moves();
        let n = partition_noisy(&mut all);
        moves.extend(all.into_iter().skip(n));
        return;
    }
    let occupied = board.occupied();
    let them = board.by_color(!us);
    let targets = !board.by_color(us);
    let blockers = pinned(pos, king, them);
    // A pinned piece may move only along its pin (the king's moves are checked apart).
    let legal =
        |from: Square, to: Square| !blockers.contains(from) || attacks::aligned(from, to, king);
    // The queue: `queue[head..]`. Every legal move pushes at most one entry, so it never fills.
    let mut queue: ArrayVec<Move, 512> = ArrayVec::new();
    let mut head = 0;
    let noisy = |queue: &mut ArrayVec<Move, 512>, head: &mut usize| {
        if *head < queue.len() {
            let first = queue[*head];
            queue.push(first);
            *head += 1;
        }
    };
    let normal = |role: Role, from: Square, to: Square, promotion: Option<Role>| Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion,
    };

    // Single pushes, then promotions by push (the queen's noisy, then the underpromotions),
    // then double pushes.
    let pawns = board.pawns() & board.by_color(us);
    let push = if us == Color::White { 8 } else { -8 };
    let single = shift_by(pawns, push) & !occupied;
    for to in single & !Bitboard::BACKRANKS {
        let from = offset(to, -push);
        if legal(from, to) {
            queue.push(normal(Role::Pawn, from, to, None));
        }
    }
    for to in single & Bitboard::BACKRANKS {
        let from = offset(to, -push);
        if legal(from, to) {
            noisy(&mut queue, &mut head);
            for promotion in [Role::Rook, Role::Bishop, Role::Knight] {
                queue.push(normal(Role::Pawn, from, to, Some(promotion)));
            }
        }
    }
    let home_half = if us == Color::White {
        Bitboard::SOUTH
    } else {
        Bitboard::NORTH
    };
    for to in shift_by(single, push) & home_half & !occupied {
        let from = offset(to, -2 * push);
        if legal(from, to) {
            queue.push(normal(Role::Pawn, from, to, None));
        }
    }
    // Pieces, each to every square it reaches that holds no piece of ours: captures (noisy)
    // and quiets interleaved by square, as shakmaty generates them.
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & board.by_color(us) {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            };
            for to in reach & targets {
                if legal(from, to) {
                    if them.contains(to) {
                        noisy(&mut queue, &mut head);
                    } else {
                        queue.push(normal(role, from, to, None));
                    }
                }
            }
        }
    }
    // The king, only where no enemy piece attacks (out of check, no slider x-rays it).
    for to in attacks::king_attacks(king) & targets {
        if board.attacks_to(to, !us, occupied).is_empty() {
            if them.contains(to) {
                noisy(&mut queue, &mut head);
            } else {
                queue.push(normal(Role::King, king, to, None));
            }
        }
    }
    // Castling: shakmaty decides it (king side, then queen side), where a right remains.
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if pos.castles().rook(us, side).is_some() {
            for m in pos.castling_moves(side) {
                queue.push(m);
            }
        }
    }
    moves.extend(queue.drain(head..));
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
        check_in(fen, CastlingMode::Standard);
    }

    fn check_in(fen: &str, mode: CastlingMode) {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(mode)
            .expect("legal position");
        let want: Vec<Move> = pos.legal_moves().into_iter().filter(is_noisy).collect();
        let mut got = MoveList::new();
        noisy_moves(&pos, &mut got);
        assert_eq!(got.to_vec(), want, "{fen}");
        let mut all = pos.legal_moves();
        let n = partition_noisy(&mut all);
        let want = all[n..].to_vec();
        // Appended after what the list holds (the picker's noisy moves).
        let mut got = MoveList::new();
        got.push(Move::Put {
            role: Role::Pawn,
            to: Square::A1,
        });
        quiet_moves(&pos, &mut got);
        assert_eq!(got[1..].to_vec(), want, "{fen}");
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
            // Pinned pieces moving along and off their pins, castling both ways, a pawn's
            // underpromotions by push, double pushes of both colours.
            "r3k2r/8/8/8/1b6/8/3N4/R3K2R w KQkq - 0 1",
            "r3k2r/pppq1ppp/8/8/Q7/8/PPP2PPP/R3K2R b KQkq - 0 1",
            "8/3P4/8/8/8/8/1k6/4K3 w - - 0 1",
            "4k3/2p5/8/8/8/8/6P1/4K3 b - - 0 1",
        ] {
            check(fen);
        }
        // Chess960 castling (king and rooks off their usual squares; shakmaty's perft suite).
        for fen in [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
        ] {
            check_in(fen, CastlingMode::Chess960);
        }
    }
}
