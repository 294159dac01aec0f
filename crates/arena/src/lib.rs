//! clio-arena: the lab. Plays UCI engines against each other, decides with a pentanomial SPRT,
//! tunes with SPSA, makes opening books. Talks to every engine, Clio included, only over UCI.

pub mod ablate;
pub mod affinity;
pub mod book;
pub mod db;
pub mod engine;
pub mod epd;
pub mod fastchess;
pub mod game;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod plot;
pub mod refs;
pub mod report;
pub mod results_cmd;
pub mod results_docs;
pub mod runner;
pub mod scheduler;
pub mod serve;
pub mod snapshot;
pub mod spsa;
pub mod state;
pub mod stats;
pub mod stats_cmd;
pub mod uci;
