// Keywords that apply when a property is present: "dependencies" (drafts 4-7,
// both forms; still read from 2019-09 on, as the suite's compatibility cases
// expect, since ignoring it would let values through), and its two halves of
// 2019-09 on, "dependentRequired" (names) and "dependentSchemas" (schemas).
#include <string>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

struct Dependency {
  std::string name;
  std::vector<std::string> required;  // the array form
  std::optional<NodeId> schema;       // the schema form
};

class DependenciesCheck final : public Keyword {
 public:
  DependenciesCheck(KeywordInfo info, std::vector<Dependency> dependencies)
      : Keyword(std::move(info)), dependencies_(std::move(dependencies)) {}

  bool validate(const Json& value, Context& context) const override {
    bool ok = true;
    for (const Dependency& dependency : dependencies_) {
      if (value.find(dependency.name) == value.end()) continue;
      if (dependency.schema) {
        if (!context.validateHere(*dependency.schema, value)) {
          ok = false;
          if (context.stopped()) return false;
        }
        continue;
      }
      for (const std::string& name : dependency.required) {
        if (value.find(name) != value.end()) continue;
        ok = false;
        if (context.fail(info(), [&] {
              return "property " + quoteText(name) + " is required when " +
                     quoteText(dependency.name) + " is present";
            })) {
          return false;
        }
      }
    }
    return ok;
  }

 private:
  std::vector<Dependency> dependencies_;
};

// What "dependencies"-like keyword `keyword` holds: arrays of names
// (`names`), schemas (`schemas`), or either.
void compileDependencies(Scope& scope, const char* keyword, bool names, bool schemas) {
  if (scope.find(keyword) == nullptr) return;
  const Json& value = objectValue(scope, keyword);
  std::vector<Dependency> dependencies;
  for (auto it = value.begin(); it != value.end(); ++it) {
    Dependency dependency{it.key(), {}, std::nullopt};
    if (it.value().is_array() || !schemas) {
      const std::string pointer = scope.pointerOf(keyword, it.key());
      if (!names) scope.failAt(pointer, "a schema dependency must be a schema");
      dependency.required = stringArray(scope, it.value(), pointer, "a property dependency");
    } else {
      dependency.schema = scope.subschema(keyword, it.key());
    }
    dependencies.push_back(std::move(dependency));
  }
  scope.add(Applies::Object,
            std::make_unique<DependenciesCheck>(scope.info(keyword), std::move(dependencies)));
}

}  // namespace

void compileDependencyKeywords(Scope& scope) {
  const bool validation = scope.reads(kValidation);
  const bool applicator = scope.reads(kApplicator);
  if (validation || applicator) compileDependencies(scope, "dependencies", true, true);
  if (!scope.since(SchemaDraft::Draft2019_09)) return;
  if (validation) compileDependencies(scope, "dependentRequired", true, false);
  if (applicator) compileDependencies(scope, "dependentSchemas", false, true);
}

}  // namespace toolguard::schema
