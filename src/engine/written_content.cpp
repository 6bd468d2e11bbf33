// What a Write, Edit, MultiEdit or notebook edit leaves in its file.
#include "written_content.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace toolguard::detail {
namespace {

// The keys whole contents come in (Claude Code, Gemini CLI, Codex, MCP servers).
constexpr const char* kContentKeys[] = {"content", "contents", "file_text",
                                        "text",    "code",     "new_content"};
constexpr const char* kOldKeys[] = {"old_string", "old_str", "oldText", "old_text"};
constexpr const char* kNewKeys[] = {"new_string", "new_str", "newText", "new_text"};

const nlohmann::json* writtenStringAt(const nlohmann::json& object, const char* const* keys,
                                      size_t count) {
  for (size_t i = 0; i < count; ++i) {
    auto it = object.find(keys[i]);
    if (it != object.end() && it->is_string()) return &*it;
  }
  return nullptr;
}

template <size_t N>
const nlohmann::json* writtenStringAt(const nlohmann::json& object, const char* const (&keys)[N]) {
  return writtenStringAt(object, keys, N);
}

// The file's content; "" when it does not exist; nullopt when it cannot be
// read as a regular file of bounded size (a FIFO would block: never opened).
std::optional<std::string> currentContent(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::string();
    return std::nullopt;
  }
  if (!S_ISREG(info.st_mode) || info.st_size < 0 ||
      static_cast<size_t>(info.st_size) > kMaxEditedFileBytes) {
    return std::nullopt;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char buffer[16384];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || text.size() + static_cast<size_t>(n) > kMaxEditedFileBytes) {
      close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return text;
}

// One replacement, as the edit tools make it: the first occurrence, or every
// one with replace_all. False when the text to replace is not there (the tool
// would fail) or is empty in a file that has text.
bool applyEdit(std::string& text, const std::string& old_text, const std::string& new_text,
               bool all) {
  if (old_text.empty()) {
    if (!text.empty()) return false;
    text = new_text;
    return true;
  }
  size_t at = text.find(old_text);
  if (at == std::string::npos) return false;
  do {
    text.replace(at, old_text.size(), new_text);
    at = all ? text.find(old_text, at + new_text.size()) : std::string::npos;
  } while (at != std::string::npos);
  return true;
}

// Every occurrence: Claude Code's replace_all, or Gemini CLI's replace told
// to expect more than one.
bool replaceAll(const nlohmann::json& edit) {
  auto it = edit.find("replace_all");
  if (it != edit.end() && it->is_boolean() && it->get<bool>()) return true;
  auto expected = edit.find("expected_replacements");
  return expected != edit.end() && expected->is_number() && expected->get<double>() > 1;
}

// One SEARCH/REPLACE block of Cline's replace_in_file and Roo Code's
// apply_diff `diff`.
struct DiffBlock {
  std::string search;
  std::string replace;
};

// The blocks of a `diff`:
//   ------- SEARCH          (or <<<<<<< SEARCH; Roo Code may add
//   text to find             `:start_line:N` and a `-------` line here)
//   =======
//   text to put there
//   +++++++ REPLACE         (or >>>>>>> REPLACE)
// Nullopt when the text is not such blocks: the edit is not known.
std::optional<std::vector<DiffBlock>> diffBlocks(const std::string& diff) {
  std::vector<DiffBlock> blocks;
  enum class Part { Outside, Search, Replace } part = Part::Outside;
  DiffBlock block;
  bool search_started = false;
  size_t at = 0;
  while (at < diff.size()) {
    size_t end = diff.find('\n', at);
    if (end == std::string::npos) end = diff.size();
    std::string line = diff.substr(at, end - at);
    const std::string with_newline = diff.substr(at, std::min(diff.size(), end + 1) - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (part == Part::Outside) {
      if (line == "------- SEARCH" || line == "<<<<<<< SEARCH") {
        part = Part::Search;
        block = DiffBlock{};
        search_started = false;
      } else if (!line.empty()) {
        return std::nullopt;
      }
    } else if (part == Part::Search) {
      if (line == "=======") {
        part = Part::Replace;
      } else if (!search_started && (line.starts_with(":start_line:") || line == "-------")) {
        continue;  // Roo Code's position, before the text
      } else {
        search_started = true;
        block.search += with_newline;
      }
    } else if (line == "+++++++ REPLACE" || line == ">>>>>>> REPLACE") {
      // The last line of each part ends at the marker, not in a newline.
      if (block.search.ends_with('\n')) block.search.pop_back();
      if (block.replace.ends_with('\n')) block.replace.pop_back();
      blocks.push_back(std::move(block));
      part = Part::Outside;
    } else {
      block.replace += with_newline;
    }
  }
  if (part != Part::Outside || blocks.empty()) return std::nullopt;
  return blocks;
}

}  // namespace

bool writesText(const nlohmann::json& args) {
  if (!args.is_object()) return false;
  if (writtenStringAt(args, kContentKeys) || writtenStringAt(args, kNewKeys)) return true;
  if (auto it = args.find("new_source"); it != args.end() && it->is_string()) return true;
  if (auto it = args.find("diff"); it != args.end() && it->is_string()) return true;
  auto edits = args.find("edits");
  return edits != args.end() && edits->is_array() && !edits->empty();
}

WrittenContent writtenContent(const nlohmann::json& args, const std::string& path) {
  WrittenContent out;
  if (!writesText(args)) return out;
  out.before = currentContent(path);
  if (auto source = args.find("new_source"); source != args.end() && source->is_string()) {
    out.cell = source->get<std::string>();
  }
  if (const nlohmann::json* content = writtenStringAt(args, kContentKeys)) {
    out.after = content->get<std::string>();
    return out;
  }
  // Cline's and Roo Code's SEARCH/REPLACE blocks, applied in order; text
  // that is not such blocks leaves the file unknown.
  if (auto diff = args.find("diff"); diff != args.end() && diff->is_string()) {
    const std::optional<std::vector<DiffBlock>> blocks = diffBlocks(diff->get<std::string>());
    // As Cline applies them: each block's text is looked for in the file as
    // it was, after where the last block matched, and the file is rebuilt
    // from the parts between (a later block never matches an earlier one's
    // replacement). A block not found exactly leaves the file unknown
    // (Cline may still find it by trimmed lines).
    std::optional<std::string> text;
    if (blocks && out.before) {
      const std::string& original = *out.before;
      std::string rebuilt;
      size_t done = 0;
      bool known = true;
      for (const DiffBlock& block : *blocks) {
        const size_t at =
            block.search.empty() ? std::string::npos : original.find(block.search, done);
        if (block.search.empty() && original.empty() && blocks->size() == 1) {
          rebuilt = block.replace;
          break;
        }
        if (at == std::string::npos) {
          known = false;
          break;
        }
        rebuilt += original.substr(done, at - done) + block.replace;
        done = at + block.search.size();
      }
      if (known && !(blocks->size() == 1 && blocks->front().search.empty())) {
        rebuilt += original.substr(std::min(done, original.size()));
      }
      if (known) text = std::move(rebuilt);
    }
    for (const DiffBlock& block : blocks ? *blocks : std::vector<DiffBlock>{}) {
      out.fragments.push_back(block.replace);
    }
    if (!blocks) out.fragments.push_back(diff->get<std::string>());
    if (text) {
      out.after = std::move(text);
      out.fragments.clear();
    }
    return out;
  }
  // The edits, in the order the tool applies them.
  std::vector<const nlohmann::json*> edits;
  if (writtenStringAt(args, kNewKeys)) edits.push_back(&args);
  if (auto list = args.find("edits"); list != args.end() && list->is_array()) {
    for (const nlohmann::json& edit : *list) {
      if (edit.is_object()) edits.push_back(&edit);
    }
  }
  if (edits.empty()) return out;
  std::optional<std::string> text = out.before;
  for (const nlohmann::json* edit : edits) {
    const nlohmann::json* new_text = writtenStringAt(*edit, kNewKeys);
    if (new_text == nullptr) continue;
    const nlohmann::json* old_text = writtenStringAt(*edit, kOldKeys);
    out.fragments.push_back(new_text->get<std::string>());
    if (text && !applyEdit(*text, old_text ? old_text->get<std::string>() : std::string(),
                           new_text->get<std::string>(), replaceAll(*edit))) {
      text.reset();
    }
  }
  if (text) {
    out.after = std::move(text);
    out.fragments.clear();
  }
  return out;
}

}  // namespace toolguard::detail
