// Precompiled once per target and included first in every C++ file of it
// (cmake/build_speed.cmake): the heavy headers nearly every file includes.
// nlohmann-json alone took a fifth of the library's compile time, parsed
// again in each file; the standard library as much again.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>
