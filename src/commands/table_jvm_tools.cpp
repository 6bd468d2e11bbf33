// Tables of harmless options: the JVM's builds and compiler (Gradle, Maven,
// javac), split from table_compiled_languages.cpp, which says where the
// options were read from. Each
// program's options were read from its `--help` on Debian 12 where it is
// installed (Go 1.19 `go help build|test|list|mod`, cargo and rustc 1.7x, GCC
// 12 and Clang 14, javac 17, Maven 3.8), otherwise from the tools'
// documentation (Gradle 8, cargo-nextest).
//
// What runs here is the project's own code; what names other code to run, a
// registry, a package by name, an install into the system or a place the
// path rules do not judge does not pass (build_tool_checks.hpp).
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "build_tool_checks.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

// javac: annotation processors found on the class path run while
// compiling; class and module paths of the workspace (or -proc:none) pass.
bool javacCallIsHarmless(const TableParse& parse, const CommandScene& scene) {
  for (const ShellWord& proc : parse.valuesOf("-proc:*")) {
    if (proc.text == "none") return true;
  }
  std::vector<ShellWord> paths = parse.valuesOf("-cp");
  for (const ShellWord& p : parse.valuesOf("--module-path")) paths.push_back(p);
  for (const ShellWord& path : paths) {
    if (path.source.find_first_of("$`") != std::string::npos) return false;  // `lib/*` passes
    for (std::string_view entry : buildToolSplit(path.text, ':')) {
      if (entry.ends_with("/*")) entry.remove_suffix(2);
      if (entry == "*") entry = ".";
      if (!buildToolTextInside(entry, scene)) return false;
    }
  }
  return true;
}

// Gradle tasks: a closed list and tasks named after what they build or
// check (a name that is no task is matched as an abbreviation of one: `pub`
// runs `publish`, so a name must be one of these, not start one); never
// publishing, uploading, deploying, installing, signing or the wrapper.
bool gradleTaskIsHarmless(std::string_view task) {
  if (const size_t colon = task.rfind(':'); colon != std::string_view::npos) {
    task = task.substr(colon + 1);
  }
  if (task.empty()) return false;
  const std::string lower = asciiLower(std::string(task));
  for (std::string_view bad : {"publish", "upload", "deploy", "install", "wrapper", "sign"}) {
    if (lower.find(bad) != std::string::npos && task != "installDist") return false;
  }
  if (oneOf(task, {"build",
                   "test",
                   "check",
                   "clean",
                   "assemble",
                   "jar",
                   "javadoc",
                   "classes",
                   "testClasses",
                   "dependencies",
                   "dependencyInsight",
                   "tasks",
                   "projects",
                   "properties",
                   "help",
                   "buildEnvironment",
                   "outgoingVariants",
                   "run",
                   "bootRun",
                   "bootJar",
                   "installDist",
                   "distZip",
                   "distTar",
                   "shadowJar",
                   "lint",
                   "detekt",
                   "integrationTest",
                   "processResources",
                   "processTestResources"})) {
    return true;
  }
  for (std::string_view prefix :
       {"assemble", "compile", "test", "lint", "check", "build", "jacoco", "spotless", "ktlint",
        "detekt", "kover", "checkstyle", "pmd", "spotbugs"}) {
    if (task.starts_with(prefix)) return true;
  }
  return false;
}

bool gradleCallIsHarmless(const TableParse& parse, const CommandScene&) {
  return std::all_of(parse.operands.begin(), parse.operands.end(),
                     [](const ShellWord& w) { return !w.dynamic && gradleTaskIsHarmless(w.text); });
}

// Maven: lifecycle phases and the goals of a closed list of plugins (a goal
// `group:artifact:version:goal` downloads and runs any plugin; exec:,
// antrun:, deploy, release: and wrapper: run or publish).
bool mavenGoalIsHarmless(std::string_view goal) {
  if (oneOf(goal, {"clean",
                   "validate",
                   "initialize",
                   "generate-sources",
                   "process-sources",
                   "generate-resources",
                   "process-resources",
                   "compile",
                   "process-classes",
                   "generate-test-sources",
                   "process-test-sources",
                   "generate-test-resources",
                   "process-test-resources",
                   "test-compile",
                   "process-test-classes",
                   "test",
                   "prepare-package",
                   "package",
                   "pre-integration-test",
                   "integration-test",
                   "post-integration-test",
                   "verify",
                   "install",
                   "site"})) {
    return true;
  }
  const size_t colon = goal.find(':');
  if (colon == std::string_view::npos || goal.find(':', colon + 1) != std::string_view::npos) {
    return false;
  }
  const std::string_view plugin = goal.substr(0, colon);
  const std::string_view name = goal.substr(colon + 1);
  if (plugin == "dependency") {
    return oneOf(name, {"tree", "list", "resolve", "resolve-plugins", "analyze", "analyze-only",
                        "build-classpath", "go-offline", "sources", "copy-dependencies"});
  }
  if (plugin == "help") {
    return oneOf(name,
                 {"effective-pom", "describe", "active-profiles", "all-profiles", "evaluate"});
  }
  if (plugin == "versions") return name.starts_with("display-");
  if (plugin == "spotless") return oneOf(name, {"apply", "check"});
  if (plugin == "checkstyle") return oneOf(name, {"check", "checkstyle"});
  if (plugin == "jacoco") return oneOf(name, {"report", "check", "prepare-agent"});
  if (plugin == "surefire") return name == "test";
  if (plugin == "failsafe") return oneOf(name, {"integration-test", "verify"});
  if (plugin == "compiler") return oneOf(name, {"compile", "testCompile"});
  if (plugin == "javadoc") return oneOf(name, {"javadoc", "jar", "test-javadoc"});
  if (plugin == "pmd") return oneOf(name, {"check", "pmd", "cpd", "cpd-check"});
  if (plugin == "spotbugs") return oneOf(name, {"check", "spotbugs"});
  if (plugin == "enforcer") return name == "enforce";
  if (plugin == "spring-boot") return name == "run";
  return false;
}

// mvn -D NAME[=VALUE]: a closed list of switches of the standard plugins.
// Others name programs or code (-Dexec.*, -Djvm=, -DargLine=-javaagent:...,
// -Dmaven.compiler.executable=, -Dmaven.ext.class.path=, -Dmaven.repo.local=).
bool mavenDefineIsHarmless(std::string_view definition) {
  const size_t eq = definition.find('=');
  const std::string_view name = definition.substr(0, eq);
  const std::string_view value =
      eq == std::string_view::npos ? std::string_view() : definition.substr(eq + 1);
  if (!oneOf(name, {"skipTests",
                    "maven.test.skip",
                    "skipITs",
                    "test",
                    "it.test",
                    "failIfNoTests",
                    "surefire.failIfNoSpecifiedTests",
                    "failsafe.failIfNoSpecifiedTests",
                    "maven.test.failure.ignore",
                    "checkstyle.skip",
                    "spotless.check.skip",
                    "spotless.apply.skip",
                    "jacoco.skip",
                    "maven.javadoc.skip",
                    "gpg.skip",
                    "enforcer.skip",
                    "pmd.skip",
                    "cpd.skip",
                    "spotbugs.skip",
                    "groups",
                    "excludedGroups",
                    "verbose",
                    "includes",
                    "excludes",
                    "expression",
                    "forceStdout",
                    "style.color",
                    "maven.main.skip",
                    "trimStackTrace",
                    "surefire.useFile",
                    "skip",
                    "maven.source.skip",
                    "license.skip"})) {
    return false;
  }
  return std::all_of(value.begin(), value.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.+,:#*-").find(c) != std::string_view::npos;
  });
}

bool mavenCallIsHarmless(const TableParse& parse, const CommandScene&) {
  // `-llr` is Maven's legacy local repository switch, not `-l lr`.
  for (const ShellWord& log : parse.valuesOf("-l")) {
    if (log.text == "lr") return false;
  }
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic || !mavenGoalIsHarmless(w.text)) return false;
  }
  for (const ShellWord& d : parse.valuesOf("-D")) {
    if (d.dynamic || !mavenDefineIsHarmless(d.text)) return false;
  }
  return true;
}

const ProgramSpec kJvmToolSpecs[] = {
    // ---- JVM ----
    // gradle / ./gradlew: tasks from a closed list (gradleCallIsHarmless).
    // Left out: -I/--init-script (code), -D/--system-prop (org.gradle.java.home
    // and JVM settings), -P/--project-prop (read by build logic), -g/
    // --gradle-user-home (its init.d scripts run), --scan (uploads a build scan).
    {"gradle|gradlew",
     "-q|--quiet -i|--info -d|--debug -w|--warn -s|--stacktrace -S|--full-stacktrace --no-scan "
     "--offline --refresh-dependencies --rerun-tasks --continue --parallel --no-parallel "
     "--build-cache --no-build-cache --configuration-cache --no-configuration-cache --daemon "
     "--no-daemon --console={plain,auto,rich,verbose} -x|--exclude-task=word --max-workers=num "
     "-p|--project-dir=inside -b|--build-file=inside -c|--settings-file=inside --status --stop "
     "-v|--version -h|--help -m|--dry-run --profile --warning-mode={all,fail,summary,none} "
     "--include-build=inside --project-cache-dir=write --priority={low,normal} --watch-fs "
     "--no-watch-fs -t|--continuous --tests=text --rerun --configuration=word "
     "--dependency=word --all --write-locks --fail-fast",
     OperandRule::Any, OptionStyle::Gnu, false, gradleCallIsHarmless},
    // mvn / ./mvnw: phases and plugin goals from closed lists, -D switches
    // from a closed list (mavenCallIsHarmless). Left out: -s/--settings and
    // -gs/--global-settings (repositories, proxies, mirrors), -t/--toolchains
    // (JDKs to run), -b/--builder, -emp/-ep (encryption).
    {"mvn|mvnw",
     "-q|--quiet -X|--debug -e|--errors -B|--batch-mode|--non-interactive -o|--offline "
     "-U|--update-snapshots -T|--threads=word -P|--activate-profiles=text -pl|--projects=text "
     "-am|--also-make -amd|--also-make-dependents -rf|--resume-from=text -f|--file=inside "
     "-N|--non-recursive -fae|--fail-at-end -ff|--fail-fast -fn|--fail-never "
     "-ntp|--no-transfer-progress -V|--show-version -v|--version -h|--help "
     "-C|--strict-checksums -c|--lax-checksums -nsu|--no-snapshot-updates -l|--log-file=write "
     "-D|--define=text --color={auto,always,never}",
     OperandRule::Any, OptionStyle::Long, false, mavenCallIsHarmless},
    // javac: class and module paths checked (javacCallIsHarmless). The module
    // path has no `-p` here: one-letter values are read glued, and
    // `-processorpath DIR` would read as `-p rocessorpath`. Left out:
    // -processor, -processorpath/--processor-path, --processor-module-path,
    // -Xplugin, -J (options of the JVM: -javaagent), -A (processor options),
    // --system, --upgrade-module-path, -bootclasspath, -extdirs.
    {"javac",
     "-d=write -s=write -h=write -cp|-classpath|--class-path=text --module-path=text "
     "-sourcepath|--source-path=tree --module-source-path=tree -encoding=word "
     "-source|--source=word -target|--target=word --release=word -g -g:*=text -nowarn -verbose "
     "-deprecation -Xlint -Xlint:*=text -Werror -parameters -proc:*={none,only,full} "
     "-implicit:*={none,class} -Xmaxerrs=num -Xmaxwarns=num -Xdiags:*={compact,verbose} "
     "-Xdoclint -Xdoclint:*=text --enable-preview --add-modules=text --limit-modules=text "
     "-m|--module=word --add-exports=text --add-reads=text -version|--version -help|--help -X",
     OperandRule::Any, OptionStyle::Long, true, javacCallIsHarmless},

};

}  // namespace

std::span<const ProgramSpec> jvmToolSpecs() {
  return kJvmToolSpecs;
}

}  // namespace toolguard::detail
