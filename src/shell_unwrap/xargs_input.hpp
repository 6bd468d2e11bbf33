#pragma once
// Internal: what xargs runs, written out when its input is known before it
// runs (`printf '%s\n' ~ | xargs rm -rf`), and the placeholders of xargs,
// find -exec and parallel that stand for values only known at run time.

#include <initializer_list>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"
#include "unwrap.hpp"

namespace toolguard::detail {

/// Makes every word holding one of `placeholders` dynamic: the value pasted
/// there is only known at run time. The text shows `${by}` in its place.
void markPlaceholders(std::vector<ShellWord>& words,
                      std::initializer_list<std::string_view> placeholders, std::string_view by);

/// Same for one placeholder given at run time (`xargs -I %`).
void markPlaceholder(std::vector<ShellWord>& words, std::string_view placeholder,
                     std::string_view by);

/// How an `xargs` command reads its names, as GNU xargs reads its options
/// (bundles, values glued or in the next word, the last of -0 and -d wins).
struct XargsInputForm {
  bool readable = true;       ///< every option understood
  bool split_at_nul = false;  ///< -0 or --null is in force: each name reaches it whole
  bool reads_file = false;    ///< -a/--arg-file: names from a file, not its input
};
XargsInputForm xargsInputForm(const SimpleCommand& xargs);

/// The commands `xargs ...` runs: each written out when its input is known
/// and small, otherwise its command with arguments only known at run time.
void unwrapXargs(const SimpleCommand& cmd, std::vector<Unwrapped>& out);

}  // namespace toolguard::detail
