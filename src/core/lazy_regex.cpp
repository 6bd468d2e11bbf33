// Regular expressions compiled the first time a call needs them.
#include "lazy_regex.hpp"

#include <stdexcept>

namespace toolguard::detail {

const RE2& LazyRegex::get() const {
  std::call_once(once_, [this] {
    if (write_pattern_) pattern_ = write_pattern_();
    compiled_ = std::make_unique<RE2>(pattern_, options_);
  });
  if (!compiled_->ok()) {
    throw std::runtime_error("the pattern '" + pattern_ +
                             "' does not compile: " + compiled_->error());
  }
  return *compiled_;
}

std::unique_ptr<LazyRegex> LazyRegex::ignoringCase() const {
  RE2::Options options = options_;
  options.set_case_sensitive(false);
  if (write_pattern_) return std::make_unique<LazyRegex>(write_pattern_, options);
  return std::make_unique<LazyRegex>(pattern_, options);
}

}  // namespace toolguard::detail
