// The per-decision view of a call: command text and normalized paths, computed once.
#include "toolguard/call_view.hpp"

#include "commands/shell_facts.hpp"
#include "core/shell_quote.hpp"
#include "paths/path_probes.hpp"
#include "shell_unwrap/shell_program_cache.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {
namespace {

// Arguments that hold a file-name glob of a search tool (Grep's `glob`,
// Gemini's `include`, Glob's `pattern`).
bool isGlobArgument(std::string_view name) {
  return name == "glob" || name == "include" || name == "pattern";
}

// Arguments that name the directory a search tool walks.
bool isDirectoryArgument(std::string_view name) {
  return name == "path" || name == "dir_path" || name == "directory" ||
         name == "relative_workspace_path";
}

// The argument a field names: "paths[2]" is "paths".
std::string_view argumentOf(std::string_view field) {
  return field.substr(0, field.find('['));
}

// Words of an argv-style command joined into shell text, each quoted as needed.
std::string joinCommandWords(const nlohmann::json& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out.push_back(' ');
    out += detail::quotedIfNeeded(w.is_string() ? w.get<std::string>() : w.dump(),
                                  detail::EqualsSign::Plain);
  }
  return out;
}

}  // namespace

CallView::CallView(const ToolCall& call, const ToolInfo& tool, PathOptions paths,
                   const std::vector<std::string>* extra_roots)
    : call_(call), tool_(tool), path_options_(std::move(paths)), extra_roots_(extra_roots) {}

const std::optional<std::string>& CallView::command() const {
  if (command_done_) return command_;
  command_done_ = true;
  if (tool_.command_arg.empty() || !call_.args.is_object()) return command_;
  auto it = call_.args.find(tool_.command_arg);
  if (it == call_.args.end()) return command_;
  if (it->is_string()) {
    command_ = it->get<std::string>();
  } else if (it->is_array()) {
    command_ = joinCommandWords(*it);
  }
  return command_;
}

void CallView::collectPaths() const {
  if (paths_done_) return;
  paths_done_ = true;
  if (call_.args.is_object()) {
    for (const std::string& name : tool_.path_args) {
      auto it = call_.args.find(name);
      if (it == call_.args.end()) continue;
      if (it->is_string() && !it->get_ref<const std::string&>().empty()) {
        raw_paths_.push_back(it->get<std::string>());
        path_fields_.push_back(name);
      } else if (it->is_array()) {
        for (size_t i = 0; i < it->size(); ++i) {
          const auto& element = (*it)[i];
          if (element.is_string() && !element.get_ref<const std::string&>().empty()) {
            raw_paths_.push_back(element.get<std::string>());
            path_fields_.push_back(name + "[" + std::to_string(i) + "]");
          }
        }
      }
    }
  }
  for (const std::string& raw : raw_paths_) {
    paths_.push_back(normalizePath(raw, call_.context.cwd, home()));
  }
}

const std::vector<std::string>& CallView::rawPaths() const {
  collectPaths();
  return raw_paths_;
}

const std::vector<std::string>& CallView::pathFields() const {
  collectPaths();
  return path_fields_;
}

const std::vector<std::string>& CallView::paths() const {
  collectPaths();
  return paths_;
}

PathValidation CallView::resolve(std::string_view path, std::string_view cwd) const {
  if (path_options_.home.empty()) path_options_.home = home();
  return resolvePath(cwd, path, path_options_);
}

void CallView::resolvePaths() const {
  if (resolved_done_) return;
  resolved_done_ = true;
  collectPaths();
  for (size_t i = 0; i < raw_paths_.size(); ++i) {
    PathValidation checked = resolve(raw_paths_[i], call_.context.cwd);
    resolved_of_raw_.push_back(checked ? static_cast<int>(resolved_paths_.size()) : -1);
    if (checked) {
      resolved_paths_.push_back(std::move(*checked.path));
    } else if (!path_error_) {
      path_error_ = "args." + path_fields_[i] + ": " + checked.error;
    }
  }
}

const std::vector<ResolvedPath>& CallView::resolvedPaths() const {
  resolvePaths();
  return resolved_paths_;
}

const std::optional<std::string>& CallView::pathError() const {
  resolvePaths();
  return path_error_;
}

const std::vector<PathAccess>& CallView::pathAccesses() const {
  if (accesses_done_) return accesses_;
  accesses_done_ = true;
  if (tool_.kind == ToolKind::Shell) return accesses_;
  resolvePaths();
  if (raw_paths_.empty()) return accesses_;  // most calls name no path
  const bool search = tool_.kind == ToolKind::FileSearch;
  PathAccessKind kind = PathAccessKind::Write;
  if (tool_.kind == ToolKind::FileRead || search ||
      (tool_.kind != ToolKind::FileWrite && tool_.metadata.read_only)) {
    kind = PathAccessKind::Read;
  }
  // The directory a search walks: its directory argument, else the cwd.
  std::string search_dir = normalizePath(".", call_.context.cwd, home());
  for (size_t i = 0; i < raw_paths_.size(); ++i) {
    if (isDirectoryArgument(argumentOf(path_fields_[i]))) {
      search_dir = paths_[i];
      break;
    }
  }
  for (size_t i = 0; i < raw_paths_.size(); ++i) {
    const std::string_view name = argumentOf(path_fields_[i]);
    const std::string route = "args." + path_fields_[i];
    if (isGlobArgument(name) && (search || name == "include")) {
      // A glob without a '/' in Grep's `glob` or an `include` matches names at any depth.
      const bool any_depth = name != "pattern";
      for (const std::string& alternative : detail::expandBraces(raw_paths_[i])) {
        std::string text;
        if (alternative.starts_with('/') || alternative.starts_with('~')) {
          text = normalizePath(alternative, call_.context.cwd, home());
        } else {
          const bool nested = any_depth && alternative.find('/') == std::string::npos;
          text = normalizePath(
              (search_dir == "/" ? "" : search_dir) + (nested ? "/**/" : "/") + alternative, "/",
              home());
        }
        PathAccess access{kind, PathShape::Pattern, raw_paths_[i], {}, route, true};
        access.path.lexical = access.path.resolved = text;
        accesses_.push_back(std::move(access));
      }
      continue;
    }
    if (resolved_of_raw_[i] < 0) continue;  // refused: pathError() says why
    const PathShape shape = search && isDirectoryArgument(name) ? PathShape::Tree : PathShape::File;
    accesses_.push_back(PathAccess{kind, shape, raw_paths_[i],
                                   resolved_paths_[static_cast<size_t>(resolved_of_raw_[i])], route,
                                   true});
  }
  return accesses_;
}

bool CallView::dependsOnCwd() const {
  if (tool_.kind == ToolKind::Shell || !tool_.command_arg.empty()) return true;
  collectPaths();
  auto relative = [](const std::string& raw) {
    return !raw.starts_with('/') && !raw.starts_with('~');
  };
  const bool search = tool_.kind == ToolKind::FileSearch;
  bool directory_given = false;
  bool relative_glob = false;
  bool any_glob = false;
  for (size_t i = 0; i < raw_paths_.size(); ++i) {
    const std::string_view name = argumentOf(path_fields_[i]);
    if (search && isGlobArgument(name)) {
      any_glob = true;
      relative_glob = relative_glob || relative(raw_paths_[i]);
      continue;
    }
    if (relative(raw_paths_[i])) return true;
    directory_given = directory_given || (search && isDirectoryArgument(name));
  }
  // A search with no directory walks the cwd, unless its glob is absolute.
  return search && !directory_given && (relative_glob || !any_glob);
}

const std::string& CallView::programCwd() const {
  if (!program_cwd_) {
    program_cwd_ = call_.context.cwd;
    if (tool_.kind == ToolKind::Shell && !paths().empty()) program_cwd_ = paths().front();
  }
  return *program_cwd_;
}

const std::string& CallView::home() const {
  if (!home_) home_ = path_options_.home.empty() ? homeDirectory() : path_options_.home;
  return *home_;
}

const ShellProgram* CallView::shellProgram() const {
  if (!program_done_) {
    program_done_ = true;
    if (tool_.kind == ToolKind::Shell && command()) {
      ShellParseOptions options;
      options.home = home();
      program_ = detail::parsedShellProgram(*command(), options);
    }
  }
  return program_.get();
}

detail::CommandCwds& CallView::commandCwds() const {
  if (!command_cwds_) command_cwds_ = std::make_shared<detail::CommandCwds>();
  return *command_cwds_;
}

const std::vector<std::string>& CallView::workspaceRoots() const {
  if (!roots_.empty()) return roots_;
  const std::string& home_dir = home();
  if (!call_.context.cwd.empty()) roots_.push_back(normalizePath(call_.context.cwd, "/", home_dir));
  auto add = [&](const std::vector<std::string>& roots) {
    for (const std::string& root : roots) {
      if (!root.empty()) roots_.push_back(normalizePath(root, call_.context.cwd, home_dir));
    }
  };
  add(call_.context.workspace_roots);
  if (extra_roots_ != nullptr) add(*extra_roots_);
  return roots_;
}

const std::vector<ResolvedPath>& CallView::resolvedWorkspaceRoots() const {
  if (resolved_roots_done_) return resolved_roots_;
  resolved_roots_done_ = true;
  // Containment never folds case (see insideWorkspace): asking the file
  // system about each root would only cost system calls.
  PathOptions options = path_options_;
  if (options.home.empty()) options.home = home();
  if (options.case_sensitivity == CaseSensitivity::Auto) {
    options.case_sensitivity = CaseSensitivity::Sensitive;
  }
  for (const std::string& root : workspaceRoots()) {
    // A root that cannot be resolved (a loop, a control character) contains nothing.
    if (PathValidation checked = resolvePath("/", root, options)) {
      resolved_roots_.push_back(std::move(*checked.path));
    }
  }
  return resolved_roots_;
}

const std::vector<std::string>& CallView::cwdForms() const {
  if (cwd_forms_done_) return cwd_forms_;
  cwd_forms_done_ = true;
  if (call_.context.cwd.empty()) return cwd_forms_;
  cwd_forms_.push_back(workspaceRoots().front());  // the cwd comes first
  if (PathValidation checked = resolve(cwd_forms_.front(), "/"); checked.path) {
    if (checked.path->resolved != cwd_forms_.front()) cwd_forms_.push_back(checked.path->resolved);
  }
  return cwd_forms_;
}

bool CallView::insideWorkspace(const ResolvedPath& path) const {
  // Case is never folded here: on a case-folding file system a path spelled
  // differently counts as outside (ask), never as inside another root.
  auto inside = [&](const std::string& form) {
    for (const ResolvedPath& root : resolvedWorkspaceRoots()) {
      if (isWithin(form, root.resolved)) return true;
    }
    return false;
  };
  return inside(path.resolved) &&
         (path.resolved_after_normalizing.empty() || inside(path.resolved_after_normalizing));
}

}  // namespace toolguard

namespace toolguard {

std::string_view toString(PathAccessKind kind) {
  return kind == PathAccessKind::Read ? "reads" : "writes";
}

}  // namespace toolguard
