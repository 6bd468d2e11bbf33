// MCP tool pins (toolguard/mcp_pins.hpp): one JSON file per server,
// {"tools": {NAME: {"hash", "description"}}, "pending": {NAME: {"hash",
// "description", "why"}}}, read and rewritten under the server's lock.
#include "toolguard/mcp_pins.hpp"

#include <algorithm>
#include <stdexcept>

#include "approval/store_file_io.hpp"
#include "core/unicode_text.hpp"
#include "toolguard/audit_chain.hpp"
#include "toolguard/result_scan.hpp"

namespace toolguard {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::string fileOf(const fs::path& dir, const std::string& server) {
  return (dir / (server + ".json")).string();
}

json readPins(const std::string& path) {
  const std::optional<detail::FileContents> contents = detail::readStoreFile(path);
  if (!contents) return {{"tools", json::object()}, {"pending", json::object()}};
  json pins = json::parse(contents->bytes, nullptr, false);
  if (!pins.is_object() || !pins.value("tools", json()).is_object() ||
      !pins.value("pending", json()).is_object()) {
    throw std::runtime_error(path + ": not a pins file toolguard wrote");
  }
  return pins;
}

void writePins(const std::string& path, const json& pins) {
  detail::replaceFileAtomically(path, pins.dump(2) + "\n");
}

std::string stringOf(const json& tool, const char* key) {
  const auto it = tool.is_object() ? tool.find(key) : tool.end();
  return it != tool.end() && it->is_string() ? it->get<std::string>() : "";
}

// A name as it looks: lowercase, separators dropped, look-alike digits read
// as the letters they imitate.
std::string lookOf(const std::string& name) {
  std::string out;
  for (char c : detail::asciiLowercase(name)) {
    if (c == '_' || c == '-' || c == '.' || c == ' ') continue;
    if (c == '0') c = 'o';
    if (c == '1') c = 'l';
    if (c == '5') c = 's';
    out += c;
  }
  return out;
}

// Why a listed tool may not be shown whatever its pin, or "".
std::string suspicion(const json& tool, const std::string& server, const fs::path& dir) {
  const std::string name = stringOf(tool, "name");
  for (size_t i = 0; i < name.size();) {
    unsigned code_point = 0;
    const size_t length = detail::decodeUtf8(name, i, code_point);
    if (length == 0 || code_point > 0x7E || detail::isInvisibleOrControl(code_point)) {
      return "its name holds characters beyond printable ASCII";
    }
    i += length;
  }
  const std::string description = stringOf(tool, "description");
  for (size_t i = 0; i < description.size();) {
    unsigned code_point = 0;
    const size_t length = detail::decodeUtf8(description, i, code_point);
    if (length == 0) return "its description is not UTF-8";
    if (detail::isInvisibleOrControl(code_point) && code_point != '\n' && code_point != '\t' &&
        code_point != '\r') {
      return "its description holds invisible or control characters";
    }
    i += length;
  }
  // The description and every string of the schema (parameter descriptions).
  json texts = json::array({description});
  std::vector<const json*> stack{&tool};
  while (!stack.empty()) {
    const json* value = stack.back();
    stack.pop_back();
    if (value->is_string()) {
      texts.push_back(*value);
    } else if (value->is_structured()) {
      for (const json& child : *value) stack.push_back(&child);
    }
  }
  for (const json& text : texts) {
    if (std::optional<std::string> found = findAgentInstructions(text.get<std::string>())) {
      return "its listing addresses an AI agent: \"" + *found + "\"";
    }
  }
  // A name that looks like another server's pinned tool without being it.
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    const std::string other = it->path().stem().string();
    if (it->path().extension() != ".json" || other == server) continue;
    json pins;
    try {
      pins = readPins(it->path().string());
    } catch (const std::exception&) {
      continue;
    }
    for (const auto& [pinned, entry] : pins["tools"].items()) {
      (void)entry;
      if (pinned != name && lookOf(pinned) == lookOf(name)) {
        return "its name imitates " + pinned + " of the server \"" + other + "\"";
      }
    }
  }
  return "";
}

}  // namespace

McpToolPins::McpToolPins(fs::path dir, std::string server)
    : dir_(std::move(dir)), server_(std::move(server)) {}

std::string McpToolPins::hashOf(const json& tool) {
  json covered = json::object();
  for (const char* key : {"name", "title", "description", "inputSchema", "annotations"}) {
    if (tool.is_object() && tool.contains(key)) covered[key] = tool[key];
  }
  return auditHash(covered.dump());
}

bool McpToolPins::known() const {
  std::error_code error;
  return fs::exists(fileOf(dir_, server_), error);
}

std::vector<HeldTool> McpToolPins::review(const json& tools, bool continues_first) {
  detail::makeDirectories(dir_.string());
  const std::string path = fileOf(dir_, server_);
  detail::ScopeFileLock lock(path + ".lock");
  json pins = readPins(path);
  const bool first = continues_first || (pins["tools"].empty() && pins["pending"].empty());
  std::vector<HeldTool> held;
  bool changed = false;
  for (const json& tool : tools.is_array() ? tools : json::array()) {
    const std::string name = stringOf(tool, "name");
    if (name.empty()) continue;
    const std::string hash = hashOf(tool);
    const std::string description = stringOf(tool, "description");
    const json& pinned = pins["tools"].value(name, json());
    // A person approved exactly this listing: shown, whatever it looks like.
    const bool approved =
        pinned.is_object() && pinned.value("approved", false) && pinned.value("hash", "") == hash;
    std::string why = approved ? "" : suspicion(tool, server_, dir_);
    if (why.empty() && !first) {
      if (pinned.is_null()) {
        why = "it is new since the server's tools were pinned";
      } else if (pinned.value("hash", "") != hash) {
        why = "its listing (description, schema or annotations) changed since it was pinned";
      }
    }
    if (why.empty()) {
      if (pinned.is_null()) {
        pins["tools"][name] = {{"hash", hash}, {"description", description}};
        changed = true;
      }
      if (pins["pending"].erase(name) > 0) changed = true;
      continue;
    }
    held.push_back({name, why, description, hash});
    const json entry = {{"hash", hash}, {"description", description}, {"why", why}};
    if (pins["pending"].value(name, json()) != entry) {
      pins["pending"][name] = entry;
      changed = true;
    }
  }
  if (changed) writePins(path, pins);
  return held;
}

std::vector<HeldTool> McpToolPins::pending() const {
  const json pins = readPins(fileOf(dir_, server_));
  std::vector<HeldTool> out;
  for (const auto& [name, entry] : pins["pending"].items()) {
    out.push_back(
        {name, entry.value("why", ""), entry.value("description", ""), entry.value("hash", "")});
  }
  return out;
}

std::optional<HeldTool> McpToolPins::approve(const std::string& tool, const std::string& hash) {
  const std::string path = fileOf(dir_, server_);
  detail::ScopeFileLock lock(path + ".lock");
  json pins = readPins(path);
  auto entry = pins["pending"].find(tool);
  if (entry == pins["pending"].end()) return std::nullopt;
  // What was shown to the person is what gets pinned, or nothing.
  if (!hash.empty() && entry->value("hash", "") != hash) return std::nullopt;
  HeldTool approved{tool, entry->value("why", ""), entry->value("description", ""),
                    entry->value("hash", "")};
  pins["tools"][tool] = {
      {"hash", approved.hash}, {"description", approved.description}, {"approved", true}};
  pins["pending"].erase(tool);
  writePins(path, pins);
  return approved;
}

std::vector<std::string> pinnedServers(const fs::path& dir) {
  std::vector<std::string> servers;
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    if (it->path().extension() == ".json") servers.push_back(it->path().stem().string());
  }
  std::sort(servers.begin(), servers.end());
  return servers;
}

}  // namespace toolguard
