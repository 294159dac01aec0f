//! The PGN reader on a fixture in arena's format: a game from a FEN-tagged book position, one
//! from the start, one without a result.

use clio_board::shakmaty::{fen::Epd, EnPassantMode};
use clio_texel::data::{read_pgn, ReadStats};

const TINY: &str = include_str!("data/tiny.pgn");

#[test]
fn reads_the_positions_after_the_skipped_plies_of_each_finished_game() {
    let (mut samples, mut stats) = (Vec::new(), ReadStats::default());
    read_pgn(TINY.as_bytes(), "tiny.pgn", 4, &mut samples, &mut stats).expect("valid PGN");
    assert_eq!(
        stats,
        ReadStats {
            games: 2,
            skipped_games: 1,
            epd_lines: 0
        }
    );
    // 10 plies - 4 from the first game, 6 - 4 from the second.
    assert_eq!(samples.len(), 6 + 2);
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    assert_eq!(results, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5]);
    let games: Vec<usize> = samples.iter().map(|s| s.game).collect();
    assert_eq!(games, [0, 0, 0, 0, 0, 0, 1, 1]);
    // The game from the start position is told apart by its number.
    assert_ne!(samples[0].opening, 1);
    assert_eq!(samples[7].opening, 1);
    // The first position kept follows the fifth move from the FEN tag's position, 7. Bg5.
    let first = Epd::from_position(&samples[0].pos, EnPassantMode::Legal).to_string();
    assert_eq!(
        first,
        "rnbqkbnr/pppp3p/8/5pB1/P1PPp1pP/2N5/RP2PPP1/3QKBNR b Kkq -"
    );
    let last = Epd::from_position(&samples[7].pos, EnPassantMode::Legal).to_string();
    assert_eq!(
        last,
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq -"
    );
}

#[test]
fn skipping_more_plies_than_a_game_has_keeps_none_of_it() {
    let (mut samples, mut stats) = (Vec::new(), ReadStats::default());
    read_pgn(TINY.as_bytes(), "tiny.pgn", 8, &mut samples, &mut stats).expect("valid PGN");
    assert_eq!(samples.len(), 2);
    assert_eq!(stats.games, 2);
}

#[test]
fn scores_from_the_move_comments_are_for_white() {
    let (mut samples, mut stats) = (Vec::new(), ReadStats::default());
    read_pgn(TINY.as_bytes(), "tiny.pgn", 4, &mut samples, &mut stats).expect("valid PGN");
    let scores: Vec<Option<f64>> = samples.iter().map(|s| s.score).collect();
    // 7. Bg5 {+0.74} Nf6 {-0.48} 8. Bxf6 {+0.40} Qxf6 {-0.09} 9. e3 {+0.01} Nc6 {-0.16}: each
    // Black score is negated; the second game has no comments.
    let expected = [74.0, 48.0, 40.0, 9.0, 1.0, 16.0].map(Some);
    assert_eq!(scores[..6], expected);
    assert_eq!(scores[6..], [None, None]);
}
