#!/bin/bash
# SPSA of the history family and the search margins under the network (tuning/net1.toml) with
# the profile-guided build of the tip (.dev/clio-pgo, bench 721,976); resumes from its
# checkpoint when run again.
cd "$(dirname "$0")/../../.."
exec .dev/arena spsa tuning/results/net1/campaign-as-run.toml --out tuning/results/net1
