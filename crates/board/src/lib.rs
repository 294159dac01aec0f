//! clio-board: position, compact moves, hashing, SEE and perft on top of shakmaty.
pub use shakmaty;
