#!/usr/bin/env bash
# Sets up (Debian packages, if missing), builds everything, and runs the example program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build
./build/examples/job_farm
