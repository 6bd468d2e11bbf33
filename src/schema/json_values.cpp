// Number comparison, integer-ness, multipleOf, equality and hashing of JSON values.
#include "schema/json_values.hpp"

#include <charconv>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

namespace toolguard::schema {
namespace {

__extension__ using Uint128 = unsigned __int128;

constexpr double kTwoPow63 = 9223372036854775808.0;
constexpr double kTwoPow64 = 18446744073709551616.0;

int sign(double d) {
  return d < 0 ? -1 : (d > 0 ? 1 : 0);
}

// Compares an integer with a double, exactly (a NaN compares as greater).
int compareIntDouble(std::int64_t i, double d) {
  if (std::isnan(d) || d >= kTwoPow63) return -1;
  if (d < -kTwoPow63) return 1;
  double whole = std::trunc(d);
  auto t = static_cast<std::int64_t>(whole);
  if (i != t) return i < t ? -1 : 1;
  return -sign(d - whole);
}

int compareUintDouble(std::uint64_t u, double d) {
  if (d < 0) return 1;
  if (std::isnan(d) || d >= kTwoPow64) return -1;
  double whole = std::trunc(d);
  auto t = static_cast<std::uint64_t>(whole);
  if (u != t) return u < t ? -1 : 1;
  return -sign(d - whole);
}

int compareIntUint(std::int64_t i, std::uint64_t u) {
  if (i < 0) return -1;
  auto v = static_cast<std::uint64_t>(i);
  return v < u ? -1 : (v > u ? 1 : 0);
}

template <class T>
int compareSame(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// 10^exponent mod m.
std::uint64_t powTenMod(int exponent, std::uint64_t m) {
  Uint128 result = 1 % m;
  Uint128 base = 10 % m;
  for (unsigned e = static_cast<unsigned>(exponent); e > 0; e >>= 1) {
    if (e & 1) result = result * base % m;
    base = base * base % m;
  }
  return static_cast<std::uint64_t>(result);
}

Decimal normalized(std::uint64_t digits, int exponent) {
  if (digits == 0) return {0, 0};
  while (digits % 10 == 0) {
    digits /= 10;
    ++exponent;
  }
  return {digits, exponent};
}

std::optional<Decimal> decimalOfDouble(double d) {
  if (!std::isfinite(d)) return std::nullopt;
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(d));
  if (ec != std::errc()) return std::nullopt;
  std::uint64_t digits = 0;
  int exponent = 0;
  int significant = 0;
  bool after_point = false;
  const char* p = buffer;
  for (; p != end && *p != 'e'; ++p) {
    if (*p == '.') {
      after_point = true;
      continue;
    }
    if (digits == 0 && *p == '0') {
      if (after_point) --exponent;
      continue;
    }
    if (significant >= 19) return std::nullopt;  // the shortest form has at most 17
    digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
    ++significant;
    if (after_point) --exponent;
  }
  if (p != end) {
    int e = 0;
    auto [rest, error] = std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, e);
    if (error != std::errc() || rest != end) return std::nullopt;
    exponent += e;
  }
  return normalized(digits, exponent);
}

// One level of the iterative comparison.
struct Pair {
  const Json* a;
  const Json* b;
};

bool shallowEqual(const Json& a, const Json& b, std::vector<Pair>& pending) {
  if (a.is_number() && b.is_number()) return compareNumbers(a, b) == 0;
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::array:
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) pending.push_back({&a[i], &b[i]});
      return true;
    case Json::value_t::object: {
      if (a.size() != b.size()) return false;
      auto ia = a.begin();
      for (auto ib = b.begin(); ib != b.end(); ++ia, ++ib) {
        if (ia.key() != ib.key()) return false;
        pending.push_back({&ia.value(), &ib.value()});
      }
      return true;
    }
    default:
      return a == b;
  }
}

std::size_t hashCombine(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

std::size_t hashAt(const Json& value, int depth) {
  switch (value.type()) {
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: {
      double d = value.get<double>();
      return d == 0 ? 0 : std::hash<double>{}(d);
    }
    case Json::value_t::string:
      return std::hash<std::string>{}(value.get_ref<const std::string&>());
    case Json::value_t::boolean:
      return value.get<bool>() ? 1 : 2;
    case Json::value_t::array: {
      std::size_t seed = 3 + value.size();
      if (depth > 0) {
        for (const Json& item : value) seed = hashCombine(seed, hashAt(item, depth - 1));
      }
      return seed;
    }
    case Json::value_t::object: {
      std::size_t seed = 4 + value.size();
      if (depth > 0) {
        for (auto it = value.begin(); it != value.end(); ++it) {
          seed = hashCombine(seed, std::hash<std::string>{}(it.key()));
          seed = hashCombine(seed, hashAt(it.value(), depth - 1));
        }
      }
      return seed;
    }
    default:
      return 5;
  }
}

}  // namespace

int compareNumbers(const Json& a, const Json& b) {
  using T = Json::value_t;
  const T ta = a.type();
  const T tb = b.type();
  if (ta == T::number_float && tb == T::number_float) {
    return compareSame(a.get<double>(), b.get<double>());
  }
  if (ta == T::number_float) return -compareNumbers(b, a);
  // a is an integer from here on.
  if (ta == T::number_integer) {
    const auto i = a.get<std::int64_t>();
    if (tb == T::number_float) return compareIntDouble(i, b.get<double>());
    if (tb == T::number_unsigned) return compareIntUint(i, b.get<std::uint64_t>());
    return compareSame(i, b.get<std::int64_t>());
  }
  const auto u = a.get<std::uint64_t>();
  if (tb == T::number_float) return compareUintDouble(u, b.get<double>());
  if (tb == T::number_integer) return -compareIntUint(b.get<std::int64_t>(), u);
  return compareSame(u, b.get<std::uint64_t>());
}

bool isInteger(const Json& value, SchemaDraft draft) {
  if (value.is_number_integer()) return true;  // signed and unsigned
  if (!value.is_number_float()) return false;
  const double d = value.get<double>();
  if (!std::isfinite(d) || std::trunc(d) != d) return false;
  return draft != SchemaDraft::Draft4 || std::fabs(d) >= kTwoPow64;
}

std::optional<Decimal> decimalOf(const Json& number) {
  if (number.is_number_unsigned()) return normalized(number.get<std::uint64_t>(), 0);
  if (number.is_number_integer()) {
    const auto i = number.get<std::int64_t>();
    const std::uint64_t magnitude =
        i < 0 ? ~static_cast<std::uint64_t>(i) + 1 : static_cast<std::uint64_t>(i);
    return normalized(magnitude, 0);
  }
  if (number.is_number_float()) return decimalOfDouble(number.get<double>());
  return std::nullopt;
}

bool isMultipleOf(const Decimal& value, const Decimal& divisor) {
  if (value.digits == 0) return true;
  if (divisor.digits == 0) return false;
  // value / divisor = (a / b) * 10^r. With a free of trailing zeros, r < 0
  // never gives an integer; otherwise a * 10^r must be divisible by b.
  const long r = static_cast<long>(value.exponent) - divisor.exponent;
  if (r < 0) return false;
  const std::uint64_t b = divisor.digits;
  const Uint128 product =
      static_cast<Uint128>(value.digits % b) * powTenMod(static_cast<int>(r), b);
  return product % b == 0;
}

bool jsonEqual(const Json& a, const Json& b) {
  std::vector<Pair> pending;
  if (!shallowEqual(a, b, pending)) return false;
  while (!pending.empty()) {
    Pair next = pending.back();
    pending.pop_back();
    if (!shallowEqual(*next.a, *next.b, pending)) return false;
  }
  return true;
}

std::size_t jsonHash(const Json& value) {
  return hashAt(value, 8);
}

std::size_t codePoints(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

}  // namespace toolguard::schema
