//! Opening-book generator (in progress).
