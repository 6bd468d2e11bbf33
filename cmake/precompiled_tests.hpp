// The precompiled header of the test and benchmark programs: the library's,
// and GoogleTest (cmake/build_speed.cmake).
#pragma once

#include <gtest/gtest.h>

#include "precompiled.hpp"
