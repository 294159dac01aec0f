//! clio-search: evaluation, history tables, move picker, TT, search, time, tunables, bench.

pub mod eval;
