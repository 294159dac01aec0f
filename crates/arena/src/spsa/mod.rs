//! SPSA tuner (in progress).
