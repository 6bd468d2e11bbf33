// Expected<T>: a value or the reason there is none.
#include "toolguard/expected.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace toolguard {
namespace {

Expected<int> half(int n) {
  if (n % 2 != 0) return fail(std::to_string(n) + " is odd");
  return n / 2;
}

Expected<void> even(int n) {
  if (n % 2 != 0) return fail("odd");
  return {};
}

TEST(Expected, HoldsAValueOrWhyThereIsNone) {
  const Expected<int> four = half(8);
  ASSERT_TRUE(four);
  EXPECT_EQ(*four, 4);
  EXPECT_TRUE(four.error().empty());
  const Expected<int> none = half(7);
  EXPECT_FALSE(none);
  EXPECT_EQ(none.error(), "7 is odd");
  Expected<std::unique_ptr<int>> owned = std::make_unique<int>(3);
  ASSERT_TRUE(owned);
  EXPECT_EQ(**owned, 3);
}

TEST(Expected, ACheckSucceedsOrSaysWhy) {
  EXPECT_TRUE(even(2));
  const Expected<void> odd = even(3);
  EXPECT_FALSE(odd);
  EXPECT_EQ(odd.error(), "odd");
  Expected<void> later;
  EXPECT_TRUE(later);
  EXPECT_FALSE(later = even(5));
}

}  // namespace
}  // namespace toolguard
