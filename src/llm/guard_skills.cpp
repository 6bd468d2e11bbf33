// The guard skill library: the built-in skills, skill directories layered on
// top of them (a later skill replaces an earlier one of the same name), and
// lookups by name and by language.
#include "toolguard/guard_skills.hpp"

#include <algorithm>
#include <stdexcept>

#include "llm/embedded_skills.hpp"
#include "policy/bounded_file.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard {
namespace fs = std::filesystem;

namespace {

// Skill files larger than this are refused.
constexpr size_t kMaxGuardSkillBytes = 256 * 1024;

// The `*.md` files directly in `dir`, sorted by name. Hidden files (editors'
// lock and backup files) are not skills, as a shell's `*.md` would not match them.
std::vector<fs::path> skillFilesIn(const fs::path& dir) {
  const SourceLocation where{dir.string(), 0, 0};
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    if (path.extension() == ".md" && !name.starts_with('.')) files.push_back(path);
  }
  if (ec) throw PolicyError(where, "cannot list guard skills: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

const GuardSkillLibrary& GuardSkillLibrary::builtin() {
  static const GuardSkillLibrary library = [] {
    GuardSkillLibrary out;
    for (size_t i = 0; i < detail::kEmbeddedSkillCount; ++i) {
      const detail::EmbeddedSkill& embedded = detail::kEmbeddedSkills[i];
      GuardSkill skill;
      try {
        skill = parseGuardSkill(embedded.text, std::string("<builtin>/") + embedded.file);
      } catch (const PolicyError& e) {
        throw std::logic_error(std::string("a built-in guard skill does not parse: ") + e.what());
      }
      if (out.find(skill.name) != nullptr) {
        throw std::logic_error("two built-in guard skills are named '" + skill.name + "'");
      }
      out.add(std::move(skill));
    }
    return out;
  }();
  return library;
}

void GuardSkillLibrary::add(GuardSkill skill) {
  auto it =
      std::lower_bound(skills_.begin(), skills_.end(), skill.name,
                       [](const GuardSkill& s, const std::string& name) { return s.name < name; });
  if (it != skills_.end() && it->name == skill.name) {
    *it = std::move(skill);
  } else {
    skills_.insert(it, std::move(skill));
  }
}

void GuardSkillLibrary::addDirectory(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (status.type() == fs::file_type::not_found) return;
  const SourceLocation where{dir.string(), 0, 0};
  if (ec) throw PolicyError(where, "cannot examine guard skill directory: " + ec.message());
  if (!fs::is_directory(status))
    throw PolicyError(where, "a guard skill directory, but not a directory");
  for (const fs::path& file : skillFilesIn(dir)) {
    add(parseGuardSkill(detail::readBoundedFile(file, kMaxGuardSkillBytes, "guard skill"),
                        file.string()));
  }
}

const GuardSkill* GuardSkillLibrary::find(std::string_view name) const {
  auto it = std::lower_bound(skills_.begin(), skills_.end(), name,
                             [](const GuardSkill& s, std::string_view n) { return s.name < n; });
  return it != skills_.end() && it->name == name ? &*it : nullptr;
}

std::vector<const GuardSkill*> GuardSkillLibrary::autoInvoked(
    const std::vector<std::string>& languages) const {
  std::vector<const GuardSkill*> out;
  for (const GuardSkill& skill : skills_) {
    if (!skill.auto_invoke || skill.language.empty()) continue;
    if (std::find(languages.begin(), languages.end(), skill.language) != languages.end()) {
      out.push_back(&skill);
    }
  }
  return out;
}

GuardSkillLibrary loadGuardSkills(const std::vector<fs::path>& directories) {
  GuardSkillLibrary library = GuardSkillLibrary::builtin();
  for (const fs::path& dir : directories) library.addDirectory(dir);
  return library;
}

}  // namespace toolguard
