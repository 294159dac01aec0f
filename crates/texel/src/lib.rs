//! texel: fits Clio's evaluation weights to game results by the Texel method. Positions come
//! from PGN (arena's games) or EPD files with results; each is resolved to its quiet leaf and
//! traced once; K and then the weights are fitted on the traces; the result is written as the
//! source of `crates/search/src/eval/weights.rs`.

pub mod data;
pub mod emit;
pub mod fit;
pub mod quiet;
