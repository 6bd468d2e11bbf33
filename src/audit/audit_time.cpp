// Audit record times: written as RFC 3339 UTC with milliseconds, read back
// from RFC 3339 with any fraction and offset, or a bare date.
#include <cstdio>
#include <ctime>
#include <optional>
#include <string_view>

#include "audit/audit_detail.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard {
namespace detail {

std::string formatAuditTime(std::chrono::system_clock::time_point when) {
  using namespace std::chrono;
  const auto ms = floor<milliseconds>(when);
  const auto day_start = floor<days>(ms);
  const year_month_day date{day_start};
  const hh_mm_ss<milliseconds> time{ms - day_start};
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<int>(time.hours().count()),
                static_cast<int>(time.minutes().count()), static_cast<int>(time.seconds().count()),
                static_cast<int>(time.subseconds().count()));
  return text;
}

}  // namespace detail

namespace {

// Reads exactly `n` digits at `pos`; nullopt if they are not all digits.
std::optional<int> digits(std::string_view text, size_t& pos, size_t n) {
  if (pos + n > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += n;
  return value;
}

bool expect(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parseAuditTime(std::string_view text) {
  using namespace std::chrono;
  size_t pos = 0;
  const auto y = digits(text, pos, 4);
  if (!y || !expect(text, pos, '-')) return std::nullopt;
  const auto mo = digits(text, pos, 2);
  if (!mo || !expect(text, pos, '-')) return std::nullopt;
  const auto d = digits(text, pos, 2);
  if (!d) return std::nullopt;
  const year_month_day date{year{*y}, month{static_cast<unsigned>(*mo)},
                            day{static_cast<unsigned>(*d)}};
  if (!date.ok()) return std::nullopt;
  system_clock::time_point result = sys_days{date};
  if (pos == text.size()) return result;  // a bare date: midnight UTC

  if (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ') return std::nullopt;
  ++pos;
  const auto h = digits(text, pos, 2);
  if (!h || !expect(text, pos, ':')) return std::nullopt;
  const auto mi = digits(text, pos, 2);
  if (!mi || !expect(text, pos, ':')) return std::nullopt;
  const auto s = digits(text, pos, 2);
  // Second 60 is a leap second; it reads as the next minute's first.
  if (!s || *h > 23 || *mi > 59 || *s > 60) return std::nullopt;
  result += hours{*h} + minutes{*mi} + seconds{*s};

  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    const size_t start = pos;
    long long nanos = 0;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      if (pos - start < 9) nanos = nanos * 10 + (text[pos] - '0');
    }
    if (pos == start) return std::nullopt;
    for (size_t n = pos - start; n < 9; ++n) nanos *= 10;
    result += duration_cast<system_clock::duration>(nanoseconds{nanos});
  }

  if (pos >= text.size()) return std::nullopt;  // RFC 3339 requires an offset
  if (text[pos] == 'Z' || text[pos] == 'z') {
    ++pos;
  } else if (text[pos] == '+' || text[pos] == '-') {
    const bool east = text[pos] == '+';
    ++pos;
    const auto oh = digits(text, pos, 2);
    if (!oh || !expect(text, pos, ':')) return std::nullopt;
    const auto om = digits(text, pos, 2);
    if (!om || *oh > 23 || *om > 59) return std::nullopt;
    const minutes offset = hours{*oh} + minutes{*om};
    // Local time = UTC + offset.
    result += east ? -offset : offset;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  return result;
}

std::optional<std::chrono::system_clock::time_point> parseAuditSince(
    std::string_view text, std::chrono::system_clock::time_point now) {
  if (auto at = parseAuditTime(text)) return at;
  using namespace std::chrono;
  size_t pos = 0;
  int64_t amount = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && pos < 9) {
    amount = amount * 10 + (text[pos] - '0');
    ++pos;
  }
  if (pos == 0 || pos + 1 != text.size()) return std::nullopt;
  switch (text[pos]) {
    case 's':
      return now - seconds{amount};
    case 'm':
      return now - minutes{amount};
    case 'h':
      return now - hours{amount};
    case 'd':
      return now - days{amount};
    case 'w':
      return now - weeks{amount};
    default:
      return std::nullopt;
  }
}

}  // namespace toolguard
