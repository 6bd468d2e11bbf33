#!/usr/bin/env bash
# Configures and builds one build tree: scripts/build.sh release|asan|fuzz|command|product
# release: optimized, -Werror, with the tests, benchmarks, examples and bindings.
# asan: AddressSanitizer + UndefinedBehaviorSanitizer (clang), the C++ tests.
# fuzz: clang with libFuzzer, ASan and UBSan (tests/fuzz); builds only the fuzzers.
# command: only the toolguard command, in the release tree (what scripts/demo.sh
#   runs); a release tree already set up for the tests keeps its settings.
# product: what `cmake --install` puts in place (scripts/install.sh), in the
#   release tree, with the tests only if the tree already has them.
# Ninja is used when it is installed (scripts/install-deps.sh installs it),
# else Make. ccache is used when it is installed (README "Building").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kind="${1:-release}"
jobs="$(nproc 2>/dev/null || echo 2)"
targets=()  # everything, unless the kind needs less
everything=(-DTOOLGUARD_BUILD_TESTS=ON -DTOOLGUARD_BUILD_BENCHMARKS=ON -DTOOLGUARD_BUILD_EXAMPLES=ON)
dir="$root/build/$kind"
case "$kind" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release -DTOOLGUARD_WERROR=ON "${everything[@]}") ;;
  command | product)
    dir="$root/build/release"
    flags=(-DCMAKE_BUILD_TYPE=Release -DTOOLGUARD_WERROR=ON)
    if ! grep -q '^TOOLGUARD_BUILD_TESTS:BOOL=ON' "$dir/CMakeCache.txt" 2>/dev/null; then
      flags+=(-DTOOLGUARD_BUILD_TESTS=OFF -DTOOLGUARD_BUILD_BENCHMARKS=OFF -DTOOLGUARD_BUILD_EXAMPLES=OFF)
    fi
    [ "$kind" = command ] && targets=(--target toolguard_cli) ;;
  # -g1: line tables, all the sanitizers' reports need; full debug information
  # made these trees a third slower to build (set CMAKE_CXX_FLAGS_DEBUG to
  # -g in build/asan for a debugger's view of variables).
  # clang: it compiles this tree in half GCC's time (a unity batch of the
  # commands layer, -O0 with ASan+UBSan: 10.2 s against 19.7 s of CPU), and
  # its -Werror adds clang's warnings to GCC's (the release tree's).
  asan) flags=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1
               -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
               -DTOOLGUARD_WERROR=ON -DTOOLGUARD_SANITIZE=ON
               -DTOOLGUARD_BUILD_TESTS=ON -DTOOLGUARD_BUILD_BENCHMARKS=OFF -DTOOLGUARD_BUILD_EXAMPLES=ON) ;;
  fuzz) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
               "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
               -DTOOLGUARD_WERROR=ON -DTOOLGUARD_SANITIZE=ON -DTOOLGUARD_FUZZ=ON
               -DTOOLGUARD_BUILD_TESTS=OFF -DTOOLGUARD_BUILD_BENCHMARKS=OFF -DTOOLGUARD_BUILD_EXAMPLES=OFF)
        targets=(--target toolguard_fuzzers) ;;
  *) echo "build.sh: unknown build kind '$kind' (release|asan|fuzz|command|product)" >&2; exit 2 ;;
esac
generator="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && generator="Ninja"
# A tree made with another generator cannot be reused: start it again.
if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx "CMAKE_GENERATOR:INTERNAL=$generator" "$dir/CMakeCache.txt"; then
  echo "build.sh: $dir was made with another generator; building it again with $generator" >&2
  rm -rf "$dir"
fi
# Nor one made with another compiler (build/asan was GCC's before).
for f in "${flags[@]}"; do
  case "$f" in
    -DCMAKE_CXX_COMPILER=*)
      compiler="$(command -v "${f#-DCMAKE_CXX_COMPILER=}" || true)"
      if [ -f "$dir/CMakeCache.txt" ] && [ -n "$compiler" ] &&
        ! grep -qx "CMAKE_CXX_COMPILER:[A-Z]*=$compiler" "$dir/CMakeCache.txt"; then
        echo "build.sh: $dir was made with another compiler; building it again with $compiler" >&2
        rm -rf "$dir"
      fi ;;
  esac
done
cmake -S "$root" -B "$dir" -G "$generator" "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$jobs" "${targets[@]}"
