#!/bin/bash
# SPSA round 3 of the search constants (tuning/search3.toml) with the profile-guided main build;
# resumes from its checkpoint when run again.
cd /work/main
exec /work/bins/arena spsa /work/runs/search3/search3.toml --out /work/runs/search3/out
