#!/bin/bash
# SPSA of the history family's newer constants (tuning/history2.toml) with the profile-guided
# main build (.dev/clio-lp, bench 784,276); resumes from its checkpoint when run again.
cd "$(dirname "$0")/../../.."
exec .dev/arena spsa tuning/results/history2/campaign-as-run.toml --out tuning/results/history2
