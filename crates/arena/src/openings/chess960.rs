//! Chess960 start positions for FRC and DFRC books: the 960 back ranks in Scharnagl's numbering
//! (number 518 is the standard setup), mirrored for Black (FRC) or drawn independently for each
//! side (DFRC, "double Fischer random", as OpenBench's DFRC book).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The back rank (files a to h) of Chess960 start position `n` (0..960) in Scharnagl's
/// numbering, as uppercase piece letters.
pub fn back_rank(n: u32) -> [char; 8] {
    let mut rank = [' '; 8];
    let n = n % 960;
    // Light-squared bishop on b, d, f or h; dark-squared bishop on a, c, e or g.
    rank[(n % 4 * 2 + 1) as usize] = 'B';
    let n = n / 4;
    rank[(n % 4 * 2) as usize] = 'B';
    let n = n / 4;
    let place = |rank: &mut [char; 8], piece: char, nth: u32| {
        let sq = (0..8)
            .filter(|&i| rank[i] == ' ')
            .nth(nth as usize)
            .unwrap_or(0);
        rank[sq] = piece;
    };
    place(&mut rank, 'Q', n % 6);
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = knights[(n / 6) as usize];
    // The second knight counts the squares still empty after the first is placed.
    place(&mut rank, 'N', a);
    place(&mut rank, 'N', b - 1);
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, piece, 0);
    }
    rank
}

/// The EPD line (four fields) with White's back rank `white` and Black's `black`; castling
/// rights in X-FEN (`KQkq`: in a start position each rook is the outermost on its side).
pub fn epd(white: u32, black: u32) -> String {
    let w: String = back_rank(white).iter().collect();
    let b: String = back_rank(black).iter().collect::<String>().to_lowercase();
    format!("{b}/pppppppp/8/8/8/8/PPPPPPPP/{w} w KQkq -")
}

/// All 960 FRC start positions, in Scharnagl's order.
pub fn frc() -> Vec<String> {
    (0..960).map(|n| epd(n, n)).collect()
}

/// `count` DFRC start positions (White and Black drawn independently from the 960), distinct,
/// in the order a ChaCha8 generator seeded with `seed` draws them.
pub fn dfrc(count: usize, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let count = count.min(960 * 960);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let (w, b) = (rng.gen_range(0..960), rng.gen_range(0..960));
        if seen.insert((w, b)) {
            out.push(epd(w, b));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

    #[test]
    fn scharnagl_numbers_name_the_known_setups() {
        // Scharnagl's table: 518 is the standard position, 0 is BBQNNRKR, 959 RKRNNQBB.
        assert_eq!(back_rank(518).iter().collect::<String>(), "RNBQKBNR");
        assert_eq!(back_rank(0).iter().collect::<String>(), "BBQNNRKR");
        assert_eq!(back_rank(959).iter().collect::<String>(), "RKRNNQBB");
    }

    #[test]
    fn the_960_are_distinct_legal_chess960_setups() {
        let all = frc();
        let distinct: std::collections::HashSet<&String> = all.iter().collect();
        assert_eq!(distinct.len(), 960);
        for line in &all {
            let pos: Chess = Fen::from_ascii(format!("{line} 0 1").as_bytes())
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            // Every pawn can move one or two squares.
            let moves = pos.legal_moves();
            let pawn = moves
                .iter()
                .filter(|m| m.role() == shakmaty::Role::Pawn)
                .count();
            assert_eq!(pawn, 16, "{line}");
            let rank: Vec<char> = line.rsplit('/').next().unwrap()[..8].chars().collect();
            let at = |c: char| rank.iter().position(|&p| p == c).unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&i| rank[i] == 'R').collect();
            assert!(
                rooks[0] < at('K') && at('K') < rooks[1],
                "{line}: king between rooks"
            );
            let bishops: Vec<usize> = (0..8).filter(|&i| rank[i] == 'B').collect();
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{line}: bishops on both colours"
            );
            // Both sides may castle both ways.
            assert_eq!(pos.castles().castling_rights().count(), 4, "{line}");
        }
    }

    #[test]
    fn dfrc_draws_distinct_pairs_by_seed() {
        let a = dfrc(500, 7);
        assert_eq!(a, dfrc(500, 7));
        assert_ne!(a, dfrc(500, 8));
        let distinct: std::collections::HashSet<&String> = a.iter().collect();
        assert_eq!(distinct.len(), 500);
        let mirrored = a
            .iter()
            .filter(|l| {
                let ranks: Vec<&str> = l.split(['/', ' ']).collect();
                ranks[0].to_uppercase() == ranks[7]
            })
            .count();
        assert!(
            mirrored < 10,
            "{mirrored} of 500 DFRC pairs are FRC mirrors"
        );
    }
}
