#!/usr/bin/env bash
# Sets up (Debian packages, if missing), builds everything, and runs the whole test suite.
# Long stress runs are separate: see docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DWUC_WERROR=ON >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure -j 2 --timeout 600
# The stress tests (channels, preemption) again under ASan+UBSan (docs/testing.md,
# "Sanitizers"): a second build directory with only the runtime and the stress programs.
cmake -S . -B build-asan -G Ninja -DWUC_WERROR=ON -DWUC_SANITIZE=address >/dev/null
cmake --build build-asan --target wuc_chan_stress wuc_preempt_stress wuc_io_stress
ctest --test-dir build-asan --output-on-failure -j 2 --timeout 600 -R '^stress\.'
# The preemption and I/O stress tests under ThreadSanitizer: the runtime and those programs.
cmake -S . -B build-tsan -G Ninja -DWUC_WERROR=ON -DWUC_SANITIZE=thread >/dev/null
cmake --build build-tsan --target wuc_preempt_stress wuc_io_stress
ctest --test-dir build-tsan --output-on-failure -j 2 --timeout 600 -R '^stress\.(preempt|io)\.'
