#pragma once
// What a function returns when it can fail without that being a bug (input
// that does not read, a URL that does not parse, a pattern RE2 refuses, a
// service that does not answer): its value, or the reason there is none.
// This is toolguard's one convention for such failures. A bug, or a failure
// only a caller far up can handle (a policy file that does not load, a store
// that cannot be written), throws instead, and every front turns an
// exception into a deny.

#include <optional>
#include <string>
#include <utility>

namespace toolguard {

/// Why a function failed; converts to any Expected<T>.
struct Failure {
  std::string reason;
};

/// Makes a Failure: `return fail("no host in the URL");`.
inline Failure fail(std::string reason) {
  return Failure{std::move(reason)};
}

/// A value of T, or the reason there is none.
template <typename T>
class [[nodiscard]] Expected {
 public:
  /// Success with `value`.
  Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit, like std::optional
  /// Failure for `failure.reason`.
  Expected(Failure failure) : error_(std::move(failure.reason)) {}  // NOLINT

  /// True on success.
  explicit operator bool() const { return value_.has_value(); }
  /// The value; only on success.
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  /// Why it failed; empty on success.
  const std::string& error() const { return error_; }

 private:
  std::optional<T> value_;
  std::string error_;
};

/// Success, or the reason for failure: what a check with no value returns.
template <>
class [[nodiscard]] Expected<void> {
 public:
  /// Success.
  Expected() = default;
  /// Failure for `failure.reason`.
  Expected(Failure failure) : failed_(true), error_(std::move(failure.reason)) {}  // NOLINT

  /// True on success.
  explicit operator bool() const { return !failed_; }
  /// Why it failed; empty on success.
  const std::string& error() const { return error_; }

 private:
  bool failed_ = false;
  std::string error_;
};

}  // namespace toolguard
