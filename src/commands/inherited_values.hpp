#pragma once
// Internal: the judgement of one value a command inherits from the agent
// (see inherited_environment.hpp), and the places it may name: whether it
// names something the model can change, or hands a program options or code
// its table of harmless options never saw.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

struct CommandScene;

/// One variable a command inherits.
struct InheritedVariable {
  std::string name;
  std::string upper;  ///< the name in capitals (npm reads `npm_config_*` too)
  std::string value;
  bool reaches_every_program = false;
};

/// The temp directories everyone may write.
inline constexpr std::string_view kTempPlaces[] = {"/tmp", "/var/tmp", "/dev/shm"};

/// `text` split at each `separator` (empty parts kept).
std::vector<std::string> splitOn(std::string_view text, char separator);

/// True when `name` ends (starts) with one of the texts.
bool endsWithAny(std::string_view name, std::initializer_list<std::string_view> endings);
bool startsWithAny(std::string_view name, std::initializer_list<std::string_view> starts);

/// True when the model may put files at `path` without a question: a
/// workspace (as the call names its roots) or a temp directory (`tmpdir` is
/// the inherited TMPDIR).
bool inModelsReach(std::string_view path, const CommandScene& scene, const std::string& tmpdir);

/// Why this inherited variable's value may change what runs (it names a
/// place or a program the model can change, or carries options or code not
/// known harmless); nullopt when it cannot.
std::optional<std::string> valueConcern(const InheritedVariable& v, const CommandScene& scene,
                                        const std::string& tmpdir);

}  // namespace toolguard::detail
