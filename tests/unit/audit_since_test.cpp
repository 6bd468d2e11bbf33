// `--since` of `toolguard audit`: a time, a date, or a time back from now.
#include <gtest/gtest.h>

#include "toolguard/audit_log.hpp"

namespace toolguard {
namespace audit_since_test {

using std::chrono::system_clock;

TEST(AuditSince, TimesBackFromNow) {
  const system_clock::time_point now = *parseAuditTime("2026-11-23T12:00:00Z");
  EXPECT_EQ(parseAuditSince("1h", now), parseAuditTime("2026-11-23T11:00:00Z"));
  EXPECT_EQ(parseAuditSince("90s", now), parseAuditTime("2026-11-23T11:58:30Z"));
  EXPECT_EQ(parseAuditSince("15m", now), parseAuditTime("2026-11-23T11:45:00Z"));
  EXPECT_EQ(parseAuditSince("2d", now), parseAuditTime("2026-11-21T12:00:00Z"));
  EXPECT_EQ(parseAuditSince("1w", now), parseAuditTime("2026-11-16T12:00:00Z"));
  EXPECT_EQ(parseAuditSince("0m", now), now);
}

TEST(AuditSince, TimesAndDatesAsParseAuditTimeReadsThem) {
  const system_clock::time_point now = system_clock::now();
  EXPECT_EQ(parseAuditSince("2026-11-23", now), parseAuditTime("2026-11-23T00:00:00Z"));
  EXPECT_EQ(parseAuditSince("2026-11-23T10:00:00+01:00", now),
            parseAuditTime("2026-11-23T09:00:00Z"));
}

TEST(AuditSince, AnythingElseIsRefused) {
  const system_clock::time_point now = system_clock::now();
  for (const char* bad : {"", "h", "1", "1y", "1 h", "-1h", "1h30m", "yesterday", "1234567890h"}) {
    EXPECT_FALSE(parseAuditSince(bad, now)) << bad;
  }
}

}  // namespace audit_since_test
}  // namespace toolguard
