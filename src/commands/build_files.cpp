// Files whose text build and test tools run as shell commands, the commands
// in them, and the tools that run them.
#include "build_files.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "makefile_scripts.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

std::string_view baseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool startsWithShellShebang(std::string_view content) {
  if (!content.starts_with("#!")) return false;
  const std::string_view line = content.substr(0, content.find('\n'));
  for (std::string_view shell : {"/sh", "/bash", "/zsh", "/dash", "/ksh", " sh", " bash", " zsh"}) {
    if (line.find(shell) != std::string_view::npos) return true;
  }
  return false;
}

// A requirements file's lines that install from elsewhere than the index
// the project uses: every line must be a package name (with extras) and a
// version specifier or environment marker; options (`--index-url`,
// `--extra-index-url`, `-e`, `-r`, `-c`, `--find-links`, `--trusted-host`),
// URLs, VCS references and paths are each given as unjudged. Comments and
// blank lines give nothing.
std::vector<std::string> requirementsScripts(std::string_view content) {
  std::vector<std::string> out;
  for (std::string line : textLines(content)) {
    if (const size_t hash = line.find(" #"); hash != std::string::npos) line.erase(hash);
    line.erase(0, line.find_first_not_of(" \t"));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) {
      line.pop_back();
    }
    if (line.empty() || line[0] == '#') continue;
    const bool plain =
        std::isalnum(static_cast<unsigned char>(line[0])) &&
        line.find("://") == std::string::npos && line.find(" @ ") == std::string::npos &&
        line.find('@') == std::string::npos && line.find('/') == std::string::npos &&
        line.find('\\') == std::string::npos && line.find(" -") == std::string::npos &&
        std::all_of(line.begin(), line.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) ||
                 std::string_view("._-[],<>=!~*;:'\" ()").find(c) != std::string_view::npos;
        });
    if (!plain) {
      out.push_back(std::string(kUnjudgedBuildText) + "the requirement `" + line +
                    "` (not a package from the project's index)");
    }
  }
  return out;
}

// A version range or tag from the registry (`^1.2.0`, `~1.0 || 2.x`,
// `latest`), or a package of the workspace (`workspace:*`); not a path, URL,
// git or tarball source, or an alias of another package.
bool registryVersion(std::string_view spec) {
  if (spec.empty()) return true;
  if (spec.starts_with("workspace:")) spec.remove_prefix(10);  // a package of this workspace
  return std::all_of(spec.begin(), spec.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view(" .-+*^~<>=|").find(c) != std::string_view::npos;
  });
}

// What installing from package.json fetches and runs besides the registry's
// packages: a dependency from a path, a URL or git (its install scripts run
// on `npm install`), an override of one, and the package manager corepack
// downloads (`packageManager`).
void packageSources(const nlohmann::json& doc, std::vector<std::string>& out) {
  for (const char* section : {"dependencies", "devDependencies", "optionalDependencies",
                              "peerDependencies", "overrides", "resolutions"}) {
    const auto it = doc.find(section);
    if (it == doc.end() || !it->is_object()) continue;
    for (const auto& [name, spec] : it->items()) {
      if (spec.is_string() && registryVersion(spec.get<std::string>())) continue;
      out.push_back(std::string(kUnjudgedBuildText) + "package.json's " + section + " entry " +
                    name + ": " + spec.dump() + " (not a version from the registry)");
    }
  }
  // Workspaces outside the project (their lifecycle scripts run on
  // install) and native builds node-gyp runs from binding.gyp.
  if (const auto it = doc.find("workspaces"); it != doc.end()) {
    const nlohmann::json& list =
        it->is_object() && it->contains("packages") ? (*it)["packages"] : *it;
    if (list.is_array()) {
      for (const nlohmann::json& w : list) {
        const std::string where = w.is_string() ? w.get<std::string>() : w.dump();
        if (!w.is_string() || where.starts_with('/') || where.starts_with('~') ||
            where.find("..") != std::string::npos) {
          out.push_back(std::string(kUnjudgedBuildText) + "package.json's workspace " + where +
                        " (outside the project)");
        }
      }
    }
  }
  if (const auto it = doc.find("gypfile"); it != doc.end()) {
    out.push_back(std::string(kUnjudgedBuildText) +
                  "package.json's gypfile (node-gyp builds and runs binding.gyp's commands)");
  }
  if (const auto it = doc.find("packageManager"); it != doc.end()) {
    out.push_back(std::string(kUnjudgedBuildText) + "package.json's packageManager " + it->dump() +
                  " (a package manager corepack downloads and runs)");
  }
}

// package.json's scripts; a fragment that is not JSON gives every string
// value that follows a key.
std::vector<std::string> packageScripts(std::string_view content) {
  std::vector<std::string> out;
  const nlohmann::json doc = nlohmann::json::parse(content, nullptr, false);
  if (!doc.is_discarded()) {
    if (doc.is_object() && doc.contains("scripts") && doc["scripts"].is_object()) {
      for (const auto& [name, script] : doc["scripts"].items()) {
        if (script.is_string()) {
          out.push_back(std::string(kNamedScript) + name + std::string(kNamedScript) +
                        script.get<std::string>());
        }
      }
    }
    if (doc.is_object()) packageSources(doc, out);
    return out;
  }
  // `"key": "value"` pairs of a fragment.
  for (size_t colon = content.find(':'); colon != std::string_view::npos;
       colon = content.find(':', colon + 1)) {
    size_t open = content.find_first_not_of(" \t\r\n", colon + 1);
    if (open == std::string_view::npos || content[open] != '"') continue;
    std::string value;
    size_t i = open + 1;
    for (; i < content.size() && content[i] != '"'; ++i) {
      if (content[i] == '\\' && i + 1 < content.size()) {
        const nlohmann::json one =
            nlohmann::json::parse("\"" + std::string(content.substr(i, 2)) + "\"", nullptr, false);
        value += one.is_string() ? one.get<std::string>() : std::string(content.substr(i + 1, 1));
        ++i;
      } else {
        value += content[i];
      }
    }
    if (i < content.size()) out.push_back(std::move(value));
  }
  return out;
}

// The string values of the named keys anywhere in a YAML document.
void collectYamlKeys(const YAML::Node& node, std::initializer_list<std::string_view> keys,
                     std::vector<std::string>& out, int depth = 0) {
  if (depth > 64) return;
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "";
      if (oneOf(key, keys)) {
        if (entry.second.IsScalar()) out.push_back(entry.second.Scalar());
        if (entry.second.IsSequence()) {
          for (const auto& item : entry.second) {
            if (item.IsScalar()) out.push_back(item.Scalar());
          }
        }
      }
      collectYamlKeys(entry.second, keys, out, depth + 1);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) collectYamlKeys(item, keys, out, depth + 1);
  }
}

std::vector<std::string> yamlScripts(std::string_view content,
                                     std::initializer_list<std::string_view> keys) {
  std::vector<std::string> out;
  try {
    collectYamlKeys(YAML::Load(std::string(content)), keys, out);
  } catch (const YAML::Exception&) {
    // A fragment: every line after one of the keys, as written.
    for (const std::string& line : textLines(content)) {
      for (std::string_view key : keys) {
        const size_t at = line.find(std::string(key) + ":");
        if (at != std::string::npos) out.push_back(line.substr(at + key.size() + 1));
      }
    }
  }
  return out;
}

// A justfile's recipe lines: indented under a recipe.
std::vector<std::string> justfileScripts(std::string_view content) {
  std::vector<std::string> out;
  auto unjudged = [&](const std::string& line) {
    out.push_back(std::string(kUnjudgedBuildText) + "the justfile line `" + line + "`");
  };
  for (const std::string& line : textLines(content)) {
    if (line.starts_with(' ') || line.starts_with('\t')) {
      std::string recipe = line.substr(line.find_first_not_of(" \t"));
      if (!recipe.empty() && recipe[0] == '@') recipe.erase(0, 1);
      // A shebang recipe runs in another program; `{{...}}` is pasted in
      // before the shell reads quotes; a backtick runs a command as just
      // reads the file.
      if (recipe.starts_with("#!") || recipe.find("{{") != std::string::npos ||
          recipe.find('`') != std::string::npos) {
        unjudged(line);
      } else if (!recipe.empty()) {
        out.push_back(std::move(recipe));
      }
      continue;
    }
    // Settings (the shell recipes run in, variables loaded from a file),
    // imports, attributes (`[script(...)]`), and backticks in assignments,
    // parameters' defaults and dependencies' arguments, which just runs.
    if (line.starts_with("set ") || line.starts_with("import") || line.starts_with("mod ") ||
        line.starts_with("!include") || line.starts_with("export ") || line.starts_with('[') ||
        line.find('`') != std::string::npos) {
      unjudged(line);
    }
  }
  return out;
}

// What IPython runs from one line of a cell, other than Python (which is the
// project's code, as a .py file is). Closed: a line IPython turns into
// something else is a shell command when it is one (`!cmd`, `!!cmd`, `x =
// !cmd`, `%sx`, `%system`, an alias such as `%rm` or, by automagic, `rm`
// alone), is read again when a magic runs it (`%time !cmd`), passes when the
// magic only changes the Python session or the display, and is unjudged
// otherwise (`%env`, `%alias`, `%cd`, `%run`, `%writefile`, ...).
void notebookLineScripts(std::string_view text, std::vector<std::string>& out, int depth = 0) {
  text.remove_prefix(std::min(text.size(), text.find_first_not_of(" \t")));
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  if (text.empty() || text.starts_with('#') || depth > 4) return;
  if (text.starts_with('!')) {
    text.remove_prefix(text.starts_with("!!") ? 2 : 1);
    out.emplace_back(text);
    return;
  }
  // `x = !cmd`, `x: list = !cmd`, `a[f(0)] = %sx ls`: IPython assigns the
  // output, whatever the target. Any `=` (not `==`, `<=`, `>=`, `!=`)
  // followed by `!` or `%` is read as such (a string holding one asks).
  for (size_t eq = text.find('='); eq != std::string_view::npos; eq = text.find('=', eq + 1)) {
    const bool comparison =
        (eq > 0 && std::string_view("=<>!").find(text[eq - 1]) != std::string_view::npos) ||
        (eq + 1 < text.size() && text[eq + 1] == '=');
    if (comparison) continue;
    std::string_view value = text.substr(eq + 1);
    value.remove_prefix(std::min(value.size(), value.find_first_not_of(" \t")));
    if (value.starts_with('!') || value.starts_with('%')) {
      notebookLineScripts(value, out, depth + 1);
      return;
    }
  }
  const bool escaped = text.starts_with('%');
  const std::string_view line = escaped ? text.substr(1) : text;
  const size_t space = line.find_first_of(" \t");
  const std::string_view name = line.substr(0, space);
  const std::string_view rest =
      space == std::string_view::npos ? "" : line.substr(line.find_first_not_of(" \t", space));
  // IPython's shell aliases on POSIX, run as `%rm ...` or, by automagic, `rm ...`.
  const bool alias = oneOf(
      name, {"ls", "ll", "lf", "lk", "ldir", "lx", "cat", "cp", "mkdir", "mv", "rm", "rmdir"});
  // Without `%`, only a line that is not Python (a word, a space, more) is
  // a magic by automagic.
  const bool automagic =
      !escaped && space != std::string_view::npos && !rest.empty() && !rest.starts_with('=') &&
      !rest.starts_with('(') &&
      !oneOf(name, {"import", "from",  "def",   "class",  "return", "if",       "for",
                    "while",  "with",  "try",   "except", "print",  "assert",   "del",
                    "raise",  "yield", "async", "await",  "global", "nonlocal", "pass",
                    "lambda", "elif",  "else",  "finally"});
  if (!escaped && !(automagic && (alias || oneOf(name, {"sx", "system", "cd", "env", "alias", "run",
                                                        "pip", "conda", "writefile"})))) {
    return;  // Python
  }
  if (alias) {
    out.emplace_back(std::string(name == "ll" ? "ls -l" : name) + " " + std::string(rest));
  } else if (oneOf(name, {"sx", "system"})) {
    out.emplace_back(rest);
  } else if (oneOf(name, {"pip", "conda"})) {
    out.emplace_back(std::string(name) + " " + std::string(rest));
  } else if (oneOf(name, {"time", "timeit", "prun"})) {
    // Their own options come first (`%timeit -n1 -r1 !cmd`): anything that
    // may hold IPython's syntax is not read past them.
    if (rest.find_first_of("!%") != std::string_view::npos) {
      out.push_back(std::string(kUnjudgedBuildText) + "the notebook line `" + std::string(text) +
                    "`");
    } else {
      notebookLineScripts(rest, out, depth + 1);
    }
  } else if (!oneOf(name, {"matplotlib", "load_ext",  "reload_ext", "autoreload",   "aimport",
                           "config",     "precision", "pprint",     "xmode",        "who",
                           "whos",       "who_ls",    "pwd",        "lsmagic",      "magic",
                           "pinfo",      "pinfo2",    "pdef",       "pdoc",         "psource",
                           "quickref",   "colors",    "automagic",  "doctest_mode", "reset"})) {
    out.push_back(std::string(kUnjudgedBuildText) + "the notebook line `" + std::string(text) +
                  "`");
  }
}

// The shell commands of one notebook cell: its lines (notebookLineScripts),
// or under a cell magic: `%%bash`, `%%sh` and `%%script bash|sh` run the
// body as shell; `%%capture`, `%%time`, `%%timeit` and `%%prun` run it as a
// cell again; `%%html`, `%%markdown`, `%%latex`, `%%svg` and `%%javascript`
// only display; any other cell magic is unjudged (`%%script perl`,
// `%%writefile`, `%%ruby`, ...).
void notebookCellScripts(std::string_view cell, std::vector<std::string>& out, int depth = 0) {
  const std::vector<std::string> cell_lines = textLines(cell);
  const size_t first = cell.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && cell.substr(first).starts_with("%%")) {
    std::string magic(cell.substr(first, cell.find('\n', first) - first));
    while (!magic.empty() && (magic.back() == '\r' || magic.back() == ' ')) magic.pop_back();
    const std::string name = magic.substr(2, magic.find_first_of(" \t") - 2);
    const std::string body(cell.substr(std::min(cell.size(), cell.find('\n', first) + 1)));
    if (magic == "%%bash" || magic == "%%sh" || magic == "%%script bash" ||
        magic == "%%script sh") {
      out.push_back(body);
    } else if (oneOf(name, {"capture", "time", "timeit", "prun"}) && depth < 4) {
      notebookCellScripts(body, out, depth + 1);
    } else if (!oneOf(name, {"html", "markdown", "latex", "svg", "javascript", "js"})) {
      out.push_back(std::string(kUnjudgedBuildText) + "the notebook cell magic `" + magic + "`");
    }
    return;
  }
  for (const std::string& line : cell_lines) notebookLineScripts(line, out);
}

// A notebook's cells (its JSON), or one cell's source when the text is not
// a notebook; a text that starts as JSON and does not parse is unjudged.
std::vector<std::string> notebookScripts(std::string_view content) {
  std::vector<std::string> out;
  const nlohmann::json doc = nlohmann::json::parse(content, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    // A cell's own text (NotebookEdit's new_source); a broken notebook
    // (an edit that left its JSON invalid) is not read here.
    const size_t first = content.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && content[first] == '{') {
      out.push_back(std::string(kUnjudgedBuildText) + "a notebook whose JSON does not parse");
      return out;
    }
    notebookCellScripts(content, out);
    return out;
  }
  const auto cells = doc.find("cells");
  if (cells == doc.end() || !cells->is_array()) {
    out.emplace_back(content);  // a JSON object that is not a notebook: not judged harmless
    return out;
  }
  for (const nlohmann::json& cell : *cells) {
    if (!cell.is_object()) continue;
    const auto type = cell.find("cell_type");
    if (type != cell.end() && type->is_string() && *type != "code") continue;
    const auto source = cell.find("source");
    if (source == cell.end()) continue;
    std::string text;
    if (source->is_string()) {
      text = source->get<std::string>();
    } else if (source->is_array()) {
      for (const nlohmann::json& part : *source) {
        if (part.is_string()) text += part.get<std::string>();
      }
    }
    notebookCellScripts(text, out);
  }
  return out;
}

}  // namespace

std::vector<std::string> textLines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(start, end - start));
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

BuildFile buildFileKind(std::string_view path, std::string_view content) {
  const std::string_view base = baseName(path);
  if (oneOf(base, {"Makefile", "makefile", "GNUmakefile"}) || base.ends_with(".mk") ||
      base.ends_with(".mak") || base.starts_with("Makefile.") || base.starts_with("makefile.")) {
    return BuildFile::Makefile;
  }
  if (base == "package.json") return BuildFile::PackageJson;
  if (path.find(".git/hooks/") != std::string_view::npos) return BuildFile::GitHook;
  if (path.find(".github/workflows/") != std::string_view::npos &&
      (base.ends_with(".yml") || base.ends_with(".yaml"))) {
    return BuildFile::GitHubWorkflow;
  }
  if (base == ".gitlab-ci.yml") return BuildFile::GitLabCi;
  if (base == "justfile" || base == "Justfile" || base == ".justfile") return BuildFile::Justfile;
  if (oneOf(base, {"conftest.py", "pytest.ini", "setup.py", "pyproject.toml", "tox.ini",
                   "noxfile.py", "setup.cfg"})) {
    return BuildFile::PythonTests;
  }
  if (base == "build.rs" || base == "Cargo.toml" ||
      path.find(".cargo/config") != std::string_view::npos) {
    return BuildFile::CargoBuild;
  }
  if (base == "CMakeLists.txt" || base.ends_with(".cmake")) return BuildFile::CMake;
  if (base.ends_with(".ipynb")) return BuildFile::Notebook;
  if ((base.starts_with("requirements") || base.starts_with("constraints")) &&
      (base.ends_with(".txt") || base.ends_with(".in"))) {
    return BuildFile::Requirements;
  }
  if ((path.starts_with("requirements/") ||
       path.find("/requirements/") != std::string_view::npos) &&
      base.ends_with(".txt")) {
    return BuildFile::Requirements;
  }
  if (base.ends_with(".sh") || base.ends_with(".bash") || base.ends_with(".zsh") ||
      startsWithShellShebang(content)) {
    return BuildFile::ShellScript;
  }
  return BuildFile::None;
}

std::string describeBuildFile(BuildFile kind) {
  switch (kind) {
    case BuildFile::Makefile:
      return "the Makefile";
    case BuildFile::PackageJson:
      return "package.json's scripts";
    case BuildFile::ShellScript:
      return "the shell script";
    case BuildFile::GitHook:
      return "the git hook";
    case BuildFile::GitHubWorkflow:
      return "the CI workflow";
    case BuildFile::GitLabCi:
      return "the GitLab CI file";
    case BuildFile::Justfile:
      return "the justfile";
    case BuildFile::PythonTests:
      return "the Python test or build configuration";
    case BuildFile::CargoBuild:
      return "the Cargo build";
    case BuildFile::CMake:
      return "the CMake file";
    case BuildFile::Notebook:
      return "the notebook's shell cells";
    case BuildFile::Requirements:
      return "the requirements file";
    case BuildFile::None:
      break;
  }
  return "the file";
}

std::vector<std::string> buildFileScripts(BuildFile kind, std::string_view content) {
  switch (kind) {
    case BuildFile::Makefile:
      return makefileScripts(content);
    case BuildFile::PackageJson:
      return packageScripts(content);
    case BuildFile::ShellScript:
    case BuildFile::GitHook:
      return {std::string(content)};
    case BuildFile::GitHubWorkflow:
      return yamlScripts(content, {"run"});
    case BuildFile::GitLabCi:
      return yamlScripts(content, {"script", "before_script", "after_script"});
    case BuildFile::Justfile:
      return justfileScripts(content);
    case BuildFile::Notebook:
      return notebookScripts(content);
    case BuildFile::Requirements:
      return requirementsScripts(content);
    default:
      return {};
  }
}

std::string_view scriptCommand(std::string_view script) {
  if (!script.starts_with(kNamedScript)) return script;
  const size_t end = script.find(kNamedScript, 1);
  return end == std::string_view::npos ? script.substr(1) : script.substr(end + 1);
}

std::optional<std::string> unjudgedBuildText(std::string_view script) {
  if (!script.starts_with(kUnjudgedBuildText) && !script.starts_with(kUnjudgedLinkText)) {
    return std::nullopt;
  }
  return std::string(script.substr(1));
}

bool buildFileHasShellText(BuildFile kind) {
  return kind != BuildFile::None && kind != BuildFile::PythonTests &&
         kind != BuildFile::CargoBuild && kind != BuildFile::CMake;
}

bool runsBuildFile(const SimpleCommand& command, BuildFile kind) {
  const std::string_view name = command.commandName();
  const auto args = command.arguments();
  const std::string first = args.empty() ? "" : args[0].text;
  switch (kind) {
    case BuildFile::Makefile:
      return name == "make" || name == "gmake";
    case BuildFile::PackageJson:
      return oneOf(name, {"npm", "pnpm", "yarn", "bun"}) &&
             oneOf(first, {"test", "t", "run", "run-script", "start", "install", "i", "ci", "build",
                           "lint", "exec", "x", "rebuild", "pack", "publish", ""});
    case BuildFile::PythonTests:
      return name == "pytest" || name == "tox" || name == "nox" ||
             (name.starts_with("python") && args.size() >= 2 &&
              (first == "-m" || first == "setup.py")) ||
             (name == "pip" || name == "pip3" || name == "uv" || name == "poetry");
    case BuildFile::GitHook:
      return name == "git";
    case BuildFile::Justfile:
      return name == "just";
    case BuildFile::CargoBuild:
      return name == "cargo";
    case BuildFile::CMake:
      return name == "cmake" || name == "ctest";
    case BuildFile::GitHubWorkflow:
      return name == "act";
    case BuildFile::GitLabCi:
      return name == "gitlab-runner";
    case BuildFile::Requirements:
      return oneOf(name, {"pip", "pip3", "uv", "pip-sync"});
    case BuildFile::Notebook:
      return oneOf(name,
                   {"jupyter", "jupyter-nbconvert", "jupyter-execute", "papermill", "ipython"});
    case BuildFile::ShellScript:
      return name == "bash" || name == "sh" || name == "zsh" || name == "dash" ||
             name == "source" || name == "." ||
             (!command.words.empty() && command.words[0].text.find('/') != std::string::npos);
    case BuildFile::None:
      break;
  }
  return false;
}

}  // namespace toolguard::detail
