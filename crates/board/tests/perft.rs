//! Perft against the published counts of ../shared/data/perft.epd (Chess Programming Wiki), and
//! the incremental Zobrist key against a full recomputation along the perft walk.

use clio_board::{
    gives_check, is_noisy, noisy_moves, parse_fen, partition_noisy, perft, perft_divide,
    quiet_moves, PieceChanges, Position,
};
use shakmaty::{EnPassantMode, Position as _};

const PERFT_EPD: &str = include_str!("../data/perft.epd");

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    PERFT_EPD
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut f = p.split_whitespace();
                    let depth = f
                        .next()
                        .and_then(|d| d.strip_prefix('D'))
                        .and_then(|d| d.parse().ok());
                    let count = f.next().and_then(|c| c.parse().ok());
                    (depth.expect("D<n>"), count.expect("count"))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

#[test]
fn perft_matches_published_counts_at_every_listed_depth() {
    let all = cases();
    assert_eq!(all.len(), 6, "perft.epd holds six positions");
    for (fen, counts) in all {
        let pos = parse_fen(&fen).expect("perft.epd FEN");
        for (depth, expected) in counts {
            assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let (fen, counts) = &cases()[1];
    let pos = parse_fen(fen).expect("kiwipete");
    let divide = perft_divide(&pos, 3);
    assert_eq!(divide.len() as u64, counts[0].1);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), counts[2].1);
}

/// `checked`: positions walked, and moves whose [`Position::key_hint`] was checked.
fn walk(pos: &mut Position, depth: u32, checked: &mut (u64, u64)) {
    assert_eq!(pos.key(), pos.recomputed_key(), "{}", pos.fen());
    checked.0 += 1;
    // The noisy-only generator gives shakmaty's legal noisy moves, in the same order.
    let mut noisy = shakmaty::MoveList::new();
    noisy_moves(pos.chess(), &mut noisy);
    let want: Vec<_> = pos.legal_moves().into_iter().filter(is_noisy).collect();
    assert_eq!(noisy.to_vec(), want, "noisy moves of {}", pos.fen());
    // The quiet-only generator gives the legal quiet moves in the order the noisy ones'
    // partition leaves them.
    let mut quiet = shakmaty::MoveList::new();
    quiet_moves(pos.chess(), &mut quiet);
    let mut all = pos.legal_moves();
    let n = partition_noisy(&mut all);
    assert_eq!(quiet[..], all[n..], "quiet moves of {}", pos.fen());
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        // gives_check before the move agrees with shakmaty's is_check after it.
        let before = gives_check(pos.chess(), &m);
        // The prefetch key is the key after the move wherever it claims to be exact: a move
        // that changes no castling right, with no en-passant square before or after.
        let hint = pos.key_hint(&m);
        let rights = pos.chess().castles().castling_rights();
        let ep_before = pos.chess().ep_square(EnPassantMode::Legal);
        pos.play(&m);
        assert_eq!(before, pos.in_check(), "{m:?} after {}", pos.fen());
        if ep_before.is_none()
            && pos.chess().ep_square(EnPassantMode::Legal).is_none()
            && pos.chess().castles().castling_rights() == rights
        {
            assert_eq!(hint, pos.key(), "key hint of {m:?}, now at {}", pos.fen());
            checked.1 += 1;
        }
        walk(pos, depth - 1, checked);
        pos.undo();
    }
    if !pos.in_check() && pos.play_null() {
        assert_eq!(
            pos.key(),
            pos.recomputed_key(),
            "null move from {}",
            pos.fen()
        );
        pos.undo();
    }
}

/// Also checks `gives_check` on every move of the walk (direct, discovered, promotion, castling
/// and en passant checks are all among them) against shakmaty after the move, the noisy-only
/// and quiet-only generators of every position against shakmaty's legal moves (the quiets in
/// the order `partition_noisy` leaves them), and the TT prefetch's key hint against the key
/// after the move.
#[test]
fn incremental_key_equals_recomputation_along_the_perft_walk() {
    let mut checked = (0, 0);
    for (fen, _) in cases() {
        let mut pos = Position::from_fen(&fen).expect("perft.epd FEN");
        walk(&mut pos, 3, &mut checked);
    }
    // Extra positions for en passant (legal and pinned) and castling-right changes by capture.
    for fen in [
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
        "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/1b4b1/8/8/8/8/1B4B1/R3K2R w KQkq - 0 1",
    ] {
        let mut pos = Position::from_fen(fen).expect("extra FEN");
        walk(&mut pos, 4, &mut checked);
    }
    assert!(checked.0 > 1_000_000, "walked {} positions", checked.0);
    assert!(checked.1 > 500_000, "checked {} key hints", checked.1);
}

#[test]
fn repetition_twofold_in_tree_threefold_in_game() {
    let mut pos = Position::startpos();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for m in shuffle {
        pos.play_uci_game_move(m).expect("legal");
    }
    // Start position seen twice in the game: not yet threefold.
    assert_eq!(pos.repetition_count(), 1);
    assert!(!pos.is_repetition());
    for m in shuffle {
        pos.play_uci_game_move(m).expect("legal");
    }
    assert_eq!(pos.repetition_count(), 2);
    assert!(pos.is_repetition(), "threefold in the game history");

    // Inside the search tree a single earlier occurrence already counts.
    let mut pos = Position::startpos();
    pos.set_root();
    for m in shuffle {
        let mv = clio_board::Move16::from_uci(m, pos.chess()).expect("legal");
        pos.play(&mv);
    }
    assert!(pos.is_repetition());
    for _ in 0..4 {
        pos.undo();
    }
    assert_eq!(
        pos.fen(),
        shakmaty::fen::Fen::from_position(
            &shakmaty::Chess::default(),
            shakmaty::EnPassantMode::Legal
        )
        .to_string()
    );
    assert_eq!(pos.chess().halfmoves(), 0);
}

#[test]
fn game_moves_are_checked() {
    let mut pos = Position::startpos();
    assert!(pos.play_uci_game_move("e2e5").unwrap_err().contains("e2e5"));
    assert!(pos.play_uci_game_move("xx").unwrap_err().contains("xx"));
    assert!(pos.play_uci_game_move("e2e4").is_ok());
}

/// Every move's `PieceChanges`, applied to the board before it, gives the board shakmaty's own
/// `play` leaves (captures, en passant, promotions and castling all occur in perft.epd).
#[test]
fn piece_changes_turn_each_board_into_the_next_along_the_perft_walk() {
    fn walk(pos: &shakmaty::Chess, depth: u32, seen: &mut [u64; 5]) {
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let changes = PieceChanges::of(pos.turn(), &m);
            let mut board = pos.board().clone();
            for &(piece, sq) in changes.removed() {
                assert_eq!(
                    board.remove_piece_at(sq),
                    Some(piece),
                    "{m:?} removes {piece:?}"
                );
            }
            for &(piece, sq) in changes.added() {
                board.set_piece_at(sq, piece);
            }
            let next = pos.clone().play(m).expect("legal move");
            assert_eq!(
                &board,
                next.board(),
                "{m:?} from {}",
                shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal)
            );
            seen[0] += 1;
            seen[1] += u64::from(m.is_capture());
            seen[2] += u64::from(m.is_en_passant());
            seen[3] += u64::from(m.is_castle());
            seen[4] += u64::from(m.is_promotion());
            walk(&next, depth - 1, seen);
        }
    }
    let mut seen = [0u64; 5];
    for (fen, _) in cases() {
        let pos = parse_fen(&fen).expect("perft.epd FEN");
        walk(&pos, 3, &mut seen);
    }
    let [moves, captures, en_passant, castles, promotions] = seen;
    assert!(
        moves > 100_000 && captures > 0 && en_passant > 0 && castles > 0 && promotions > 0,
        "{seen:?}"
    );
}
