//! Score constants shared by the search and the TT: the ply limit and the mate scale.

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of being mated at the root (mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores at least this large in magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
