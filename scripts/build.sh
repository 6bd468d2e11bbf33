#!/usr/bin/env bash
# Configures and builds one build tree: scripts/build.sh release|asan|fuzz
# release: optimized, -Werror.  asan: AddressSanitizer + UndefinedBehaviorSanitizer.
# fuzz: clang with libFuzzer, ASan and UBSan (tests/fuzz); builds only the fuzzers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kind="${1:-release}"
dir="$root/build/$kind"
jobs="$(nproc 2>/dev/null || echo 2)"
targets=()  # everything, unless the kind needs less
case "$kind" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release -DTOOLGUARD_WERROR=ON) ;;
  asan) flags=(-DCMAKE_BUILD_TYPE=Debug -DTOOLGUARD_WERROR=ON -DTOOLGUARD_SANITIZE=ON -DTOOLGUARD_BUILD_BENCHMARKS=OFF) ;;
  fuzz) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
               -DTOOLGUARD_WERROR=ON -DTOOLGUARD_SANITIZE=ON -DTOOLGUARD_FUZZ=ON
               -DTOOLGUARD_BUILD_TESTS=OFF -DTOOLGUARD_BUILD_BENCHMARKS=OFF -DTOOLGUARD_BUILD_EXAMPLES=OFF)
        targets=(--target toolguard_fuzzers) ;;
  *) echo "build.sh: unknown build kind '$kind' (release|asan|fuzz)" >&2; exit 2 ;;
esac
cmake -S "$root" -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$jobs" "${targets[@]}"
