// The precompiled header of the benchmarks: the library's, and Google
// Benchmark (cmake/build_speed.cmake).
#pragma once

#include <benchmark/benchmark.h>

#include "precompiled.hpp"
