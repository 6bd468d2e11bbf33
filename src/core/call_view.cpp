// The per-decision view of a call: command text and normalized paths, computed once.
#include "toolguard/call_view.hpp"

#include "toolguard/paths.hpp"

namespace toolguard {
namespace {

bool needsQuoting(const std::string& word) {
  if (word.empty()) return true;
  for (char c : word) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.' || c == '/' || c == '=' || c == ':' || c == ',' ||
                 c == '+' || c == '@' || c == '%';
    if (!plain) return true;
  }
  return false;
}

// Words of an argv-style command joined into shell text, each quoted as needed.
std::string joinWords(const nlohmann::json& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out.push_back(' ');
    std::string word = w.is_string() ? w.get<std::string>() : w.dump();
    if (!needsQuoting(word)) {
      out += word;
      continue;
    }
    out.push_back('\'');
    for (char c : word) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out.push_back(c);
      }
    }
    out.push_back('\'');
  }
  return out;
}

}  // namespace

CallView::CallView(const ToolCall& call, const ToolInfo& tool) : call_(call), tool_(tool) {}

const std::optional<std::string>& CallView::command() const {
  if (command_done_) return command_;
  command_done_ = true;
  if (tool_.command_arg.empty() || !call_.args.is_object()) return command_;
  auto it = call_.args.find(tool_.command_arg);
  if (it == call_.args.end()) return command_;
  if (it->is_string()) {
    command_ = it->get<std::string>();
  } else if (it->is_array()) {
    command_ = joinWords(*it);
  }
  return command_;
}

const std::vector<std::string>& CallView::rawPaths() const {
  if (!paths_done_) paths();
  return raw_paths_;
}

const std::vector<std::string>& CallView::paths() const {
  if (paths_done_) return paths_;
  paths_done_ = true;
  if (call_.args.is_object()) {
    for (const std::string& name : tool_.path_args) {
      auto it = call_.args.find(name);
      if (it == call_.args.end()) continue;
      if (it->is_string() && !it->get_ref<const std::string&>().empty()) {
        raw_paths_.push_back(it->get<std::string>());
      } else if (it->is_array()) {
        for (const auto& element : *it) {
          if (element.is_string() && !element.get_ref<const std::string&>().empty()) {
            raw_paths_.push_back(element.get<std::string>());
          }
        }
      }
    }
  }
  const std::string home = homeDirectory();
  for (const std::string& raw : raw_paths_) {
    paths_.push_back(normalizePath(raw, call_.context.cwd, home));
  }
  return paths_;
}

const std::string& CallView::home() const {
  if (!home_) home_ = homeDirectory();
  return *home_;
}

const ShellProgram* CallView::shellProgram() const {
  if (!program_done_) {
    program_done_ = true;
    if (tool_.kind == ToolKind::Shell && command()) {
      ShellParseOptions options;
      options.home = home();
      program_ = parseShellProgram(*command(), options);
    }
  }
  return program_ ? &*program_ : nullptr;
}

const std::vector<std::string>& CallView::workspaceRoots() const {
  if (!roots_.empty()) return roots_;
  const std::string home = homeDirectory();
  if (!call_.context.cwd.empty()) roots_.push_back(normalizePath(call_.context.cwd, "/", home));
  for (const std::string& root : call_.context.workspace_roots) {
    if (!root.empty()) roots_.push_back(normalizePath(root, call_.context.cwd, home));
  }
  return roots_;
}

}  // namespace toolguard
