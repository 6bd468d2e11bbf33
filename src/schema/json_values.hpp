#pragma once
// What JSON Schema asks of JSON values: exact number comparison (integers and
// floats mixed, 1 == 1.0), integer-ness per draft, decimal multipleOf, JSON
// equality, hashing for uniqueItems, and string length in code points.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "toolguard/json_schema.hpp"

namespace toolguard::schema {

using Json = nlohmann::json;

/// -1, 0 or 1 as number `a` is less than, equal to or greater than `b`,
/// exactly (no rounding of large integers). Both must be numbers.
int compareNumbers(const Json& a, const Json& b);

/// Whether `value` is an integer for `draft`: drafts 6 and 7 count any number
/// with a zero fractional part (1.0); draft 4 counts integers as written, and
/// floats too large for a 64-bit integer that have no fraction (bignums).
bool isInteger(const Json& value, SchemaDraft draft);

/// A finite number as digits * 10^exponent, digits without trailing zeros.
struct Decimal {
  std::uint64_t digits = 0;
  int exponent = 0;
};

/// The decimal a number is written as (a float's shortest round-trip form:
/// 0.0075 is 75 * 10^-4); nullopt for a non-number or a non-finite float.
std::optional<Decimal> decimalOf(const Json& number);

/// Whether `value` is an integer multiple of `divisor` (> 0), computed on
/// the decimals, so 0.0075 is a multiple of 0.0001 and 1e308 of 0.5.
bool isMultipleOf(const Decimal& value, const Decimal& divisor);

/// JSON equality: numbers by value (1 == 1.0), objects regardless of member
/// order. Iterative: any depth.
bool jsonEqual(const Json& a, const Json& b);

/// A hash consistent with jsonEqual (looks 8 levels deep at most).
std::size_t jsonHash(const Json& value);

/// The number of Unicode code points in a UTF-8 string.
std::size_t codePoints(std::string_view text);

}  // namespace toolguard::schema
