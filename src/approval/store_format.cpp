// The JSON of approval store files: the toolguard format and the plain
// {"version": 1, "allowed_tools": [...]} format, parsed strictly; writing in
// the toolguard format.
#include "approval/store_format.hpp"

#include <time.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "approval/store_layout.hpp"
#include "json/json_error.hpp"
#include "toolguard/approval_store.hpp"

namespace toolguard::detail {

namespace {

using nlohmann::json;

constexpr int kVersion = 1;
constexpr std::string_view kFormatName = "toolguard-approvals";

std::string inQuotes(std::string_view text) {
  std::string result = "\"";
  result.append(text);
  result.push_back('"');
  return result;
}

// Thrown inside this file with the problem only; turned into ApprovalStoreError.
struct FormatProblem {
  std::string problem;
};

json parseJson(std::string_view bytes) {
  if (bytes.empty()) throw FormatProblem{"empty file (0 bytes), not an approval store file"};
  try {
    return json::parse(bytes.begin(), bytes.end());
  } catch (const json::parse_error& error) {
    const detail::JsonErrorText text = detail::readJsonError(error.what());
    throw FormatProblem{"not valid JSON (at byte " + std::to_string(error.byte) +
                        "): " + text.message};
  } catch (const json::exception& error) {  // a number too large for a double: no position
    throw FormatProblem{"not valid JSON (at byte " + std::to_string(detail::jsonErrorByte(bytes)) +
                        "): " + detail::readJsonError(error.what()).message};
  }
}

const json& requireKey(const json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end()) throw FormatProblem{where + "missing " + inQuotes(key)};
  return *found;
}

std::string requireString(const json& value, const std::string& what) {
  if (!value.is_string()) {
    throw FormatProblem{what + " must be a string, not " + std::string(value.type_name())};
  }
  return value.get<std::string>();
}

void requireVersion(const json& document) {
  const json& version = requireKey(document, "version", "");
  if (!version.is_number_integer() || version.get<long long>() != kVersion) {
    throw FormatProblem{"unsupported \"version\" " + version.dump() + " (expected 1)"};
  }
}

void rejectUnknownKeys(const json& object, std::initializer_list<std::string_view> known,
                       const std::string& where) {
  for (const auto& item : object.items()) {
    bool is_known = false;
    for (std::string_view key : known) is_known = is_known || item.key() == key;
    if (!is_known) throw FormatProblem{where + "unknown key " + inQuotes(item.key())};
  }
}

ApprovalEntry parseEntry(const json& value, size_t index) {
  const std::string where = "entries[" + std::to_string(index) + "]";
  if (!value.is_object()) {
    throw FormatProblem{where + " must be an object, not " + std::string(value.type_name())};
  }
  rejectUnknownKeys(value, {"tool", "binding", "value", "rule", "created", "note"}, where + ": ");
  ApprovalEntry entry;
  entry.tool = requireString(requireKey(value, "tool", where + ": "), where + ".tool");
  if (entry.tool.empty()) throw FormatProblem{where + ".tool is empty"};
  const std::string binding =
      requireString(requireKey(value, "binding", where + ": "), where + ".binding");
  const std::optional<ApprovalBinding> parsed = parseApprovalBinding(binding);
  if (!parsed) {
    throw FormatProblem{where + ".binding: unknown binding " + inQuotes(binding) +
                        " (expected exact, pattern or tool)"};
  }
  entry.binding = *parsed;
  if (const auto found = value.find("value"); found != value.end()) {
    entry.value = requireString(*found, where + ".value");
  }
  if (entry.binding != ApprovalBinding::Tool && entry.value.empty()) {
    throw FormatProblem{where + ".value is missing or empty (binding " + binding + ")"};
  }
  if (const auto found = value.find("rule"); found != value.end()) {
    entry.rule = requireString(*found, where + ".rule");
  }
  if (const auto found = value.find("created"); found != value.end()) {
    entry.created = requireString(*found, where + ".created");
  }
  if (const auto found = value.find("note"); found != value.end()) {
    entry.note = requireString(*found, where + ".note");
  }
  return entry;
}

ScopeFileContents parseToolguardFormat(const json& document) {
  rejectUnknownKeys(document, {"version", "format", "scope", "scope_id", "entries"}, "");
  const std::string format = requireString(requireKey(document, "format", ""), "\"format\"");
  if (format != kFormatName) {
    throw FormatProblem{"unknown \"format\" " + inQuotes(format) + " (expected " +
                        inQuotes(kFormatName) + ")"};
  }
  ScopeFileContents contents;
  const std::string scope = requireString(requireKey(document, "scope", ""), "\"scope\"");
  const std::optional<ApprovalScope> parsed_scope = parseApprovalScope(scope);
  if (!parsed_scope || scope == "everywhere") {
    throw FormatProblem{"unknown \"scope\" " + inQuotes(scope) +
                        " (expected session, project, agent or global)"};
  }
  contents.scope = *parsed_scope;
  contents.scope_id = requireString(requireKey(document, "scope_id", ""), "\"scope_id\"");
  if (std::string problem = scopeIdProblem(contents.scope, contents.scope_id); !problem.empty()) {
    throw FormatProblem{"\"scope_id\": " + problem};
  }
  const json& entries = requireKey(document, "entries", "");
  if (!entries.is_array()) {
    throw FormatProblem{"\"entries\" must be an array, not " + std::string(entries.type_name())};
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    ApprovalEntry entry = parseEntry(entries[i], i);
    entry.scope = contents.scope;
    entry.scope_id = contents.scope_id;
    contents.entries.push_back(std::move(entry));
  }
  return contents;
}

ScopeFileContents parsePlainFormat(const json& document) {
  ScopeFileContents contents;
  contents.plain = true;
  const json& names = requireKey(document, "allowed_tools", "");
  if (!names.is_array()) {
    throw FormatProblem{"\"allowed_tools\" must be an array, not " +
                        std::string(names.type_name())};
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string where = "allowed_tools[" + std::to_string(i) + "]";
    ApprovalEntry entry;
    entry.tool = requireString(names[i], where);
    if (entry.tool.empty()) throw FormatProblem{where + " is empty"};
    entry.binding = ApprovalBinding::Tool;
    contents.entries.push_back(std::move(entry));
  }
  for (const auto& item : document.items()) {
    if (item.key() != "version" && item.key() != "allowed_tools") {
      contents.plain_other_keys.push_back(item.key());
    }
  }
  return contents;
}

ScopeFileContents parseEitherFormat(std::string_view bytes) {
  const json document = parseJson(bytes);
  if (!document.is_object()) {
    throw FormatProblem{"must be a JSON object, not " + std::string(document.type_name())};
  }
  requireVersion(document);
  if (document.contains("format")) return parseToolguardFormat(document);
  if (document.contains("allowed_tools")) return parsePlainFormat(document);
  throw FormatProblem{
      "neither the toolguard format (no \"format\") nor the plain format (no \"allowed_tools\")"};
}

std::string describeScope(ApprovalScope scope, std::string_view scope_id) {
  std::string text(toString(scope));
  if (scope != ApprovalScope::Global) {
    text.push_back(' ');
    text.append(inQuotes(scope_id));
  }
  return text;
}

}  // namespace

ScopeFileContents parseScopeFile(const std::string& path, std::string_view bytes) {
  try {
    return parseEitherFormat(bytes);
  } catch (const FormatProblem& problem) {
    throw ApprovalStoreError(path, problem.problem);
  }
}

ScopeFileContents parseScopeFileFor(const std::string& path, std::string_view bytes,
                                    ApprovalScope scope, std::string_view scope_id) {
  ScopeFileContents contents = parseScopeFile(path, bytes);
  if (contents.plain) {
    contents.scope = scope;
    contents.scope_id = std::string(scope_id);
    for (ApprovalEntry& entry : contents.entries) {
      entry.scope = scope;
      entry.scope_id = std::string(scope_id);
    }
  } else if (contents.scope != scope || contents.scope_id != scope_id) {
    throw ApprovalStoreError(path, "records the entries of " +
                                       describeScope(contents.scope, contents.scope_id) +
                                       ", not of " + describeScope(scope, scope_id));
  }
  return contents;
}

std::vector<std::string> parsePlainFile(const std::string& path, std::string_view bytes) {
  try {
    const json document = parseJson(bytes);
    if (!document.is_object()) {
      throw FormatProblem{"must be a JSON object, not " + std::string(document.type_name())};
    }
    requireVersion(document);
    if (!document.contains("allowed_tools")) {
      throw FormatProblem{
          "not the plain format {\"version\": 1, \"allowed_tools\": [...]}: no \"allowed_tools\""};
    }
    std::vector<std::string> names;
    for (ApprovalEntry& entry : parsePlainFormat(document).entries) {
      names.push_back(std::move(entry.tool));
    }
    return names;
  } catch (const FormatProblem& problem) {
    throw ApprovalStoreError(path, problem.problem);
  }
}

std::string formatScopeFile(const std::string& path, ApprovalScope scope, std::string_view scope_id,
                            const std::vector<ApprovalEntry>& entries) {
  using ordered = nlohmann::ordered_json;
  ordered document = ordered::object();
  document["version"] = kVersion;
  document["format"] = kFormatName;
  document["scope"] = toString(scope);
  document["scope_id"] = scope_id;
  ordered& list = document["entries"] = ordered::array();
  for (const ApprovalEntry& entry : entries) {
    ordered item = ordered::object();
    item["tool"] = entry.tool;
    item["binding"] = toString(entry.binding);
    item["value"] = entry.value;
    if (!entry.rule.empty()) item["rule"] = entry.rule;
    item["created"] = entry.created;
    item["note"] = entry.note;
    list.push_back(std::move(item));
  }
  try {
    return document.dump(2) + "\n";
  } catch (const ordered::type_error& error) {
    throw ApprovalStoreError(path, std::string("cannot write an entry: ") + error.what());
  }
}

std::string currentUtcTimestamp() {
  const time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  if (strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) return "";
  return text;
}

}  // namespace toolguard::detail
