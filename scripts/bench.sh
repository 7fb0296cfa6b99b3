#!/usr/bin/env bash
# Benchmarks against Go and the other peers, one command: installs what the
# harness needs (the project's packages through setup.sh, python3-matplotlib
# for the plots, nginx and wrk for the httpd benchmark, libboost-fiber-dev for
# the Boost.Fiber peer; checks for cargo, the crossbeam peer's),
# builds every side and runs bench/run.py with the arguments given, e.g.
#   scripts/bench.sh            # full run, 5 runs per side (docs/benchmarks.md: how long)
#   scripts/bench.sh --quick    # smoke run, under 2 minutes once built
#   scripts/bench.sh --only futures --only select-contend
#   scripts/bench.sh --repeat 3 # the suite 3 times: each goal met in how many of 3
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Debian's matplotlib belongs to Debian's python3: run the harness with that one.
if ! /usr/bin/python3 -c "import matplotlib" >/dev/null 2>&1; then
  echo "bench: installing python3-matplotlib (the PNG plots)"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends python3-matplotlib
fi
# The I/O benchmarks (bench/SHAPES.md, "I/O benchmarks"): wrk loads the
# HTTP servers, nginx is the third httpd column (run by bench/httpd_load.py as
# the current user, pid and logs in a temporary directory; the package's own
# service is not started here).
if ! command -v wrk >/dev/null 2>&1 || ! { command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1; then
  echo "bench: installing nginx and wrk (the httpd benchmark)"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends nginx wrk
fi
# The Boost.Fiber peer (bench/peers/boost_fiber): Debian's package, built by
# CMake with the benchmarks.
if ! dpkg -s libboost-fiber-dev >/dev/null 2>&1; then
  echo "bench: installing libboost-fiber-dev (the Boost.Fiber peer)"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends libboost-fiber-dev
fi
# The crossbeam peer (bench/peers/crossbeam) is built by run.py with cargo,
# which Debian 12 packages too old for its Cargo.lock (version 4: cargo >=
# 1.78), so it is not installed here; run.py skips the peer without it.
if ! command -v cargo >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
  echo "bench: no cargo (https://rustup.rs): the crossbeam peer will be skipped"
fi
# The Go peers need Go >= 1.23 (bench/peers/go/go.mod, SHAPES.md's timer
# semantics); Debian 12 packages only 1.19, so Go is not installed here:
# run.py looks on PATH and in /usr/local/go and says what it found.
exec /usr/bin/python3 bench/run.py "$@"
