#pragma once
// Internal: SHA-256 as lowercase hex, from nettle (which uses the processor's
// SHA instructions where it has them). The audit chain and the service's
// token hashes both use it.

#include <string>
#include <string_view>

namespace toolguard::detail {

/// SHA-256 of `bytes`, 64 lowercase hex digits.
std::string sha256Hex(std::string_view bytes);

}  // namespace toolguard::detail
