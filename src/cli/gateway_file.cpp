// Reading a gateway file (docs/mcp-gateway.md) into its servers, with the
// file, line and column of every problem.
#include "cli/gateway_file.hpp"

#include <set>

#include "cli/upstream_headers.hpp"
#include "mcp/http_exchange.hpp"
#include "policy/bounded_file.hpp"
#include "policy/doc_node_yaml.hpp"
#include "policy/policy_document.hpp"
#include "policy/yaml_json.hpp"
#include "toolguard/mcp_tools.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::cli {
namespace {

namespace fs = std::filesystem;
using detail::DocNode;

constexpr long long kLongestDurationMs = 30LL * 24 * 3600 * 1000;

/// Collects the problems of one file, each at its node.
class GatewayFileReader {
 public:
  GatewayFileReader(std::string name, fs::path dir)
      : name_(std::move(name)), dir_(std::move(dir)) {}

  void error(const DocNode& node, std::string message) {
    errors_.push_back({detail::locationOf(node, name_), std::move(message)});
  }
  bool failed() const { return !errors_.empty(); }
  std::vector<PolicyDiagnostic> take() { return std::move(errors_); }

  std::string scalar(const DocNode& node, const std::string& what) {
    if (!node.IsScalar()) error(node, what + " must be a string");
    return node.Scalar();
  }

  std::vector<std::string> strings(const DocNode& node, const std::string& what) {
    std::vector<std::string> out;
    if (node.IsScalar()) {
      out.push_back(node.Scalar());
      return out;
    }
    if (!node.IsSequence()) {
      error(node, what + " must be a string or a list of strings");
      return out;
    }
    for (const DocNode& item : node.items()) out.push_back(scalar(item, what + "'s items"));
    return out;
  }

  // A path of the file, relative to the file's directory.
  fs::path path(const DocNode& node, const std::string& what) {
    fs::path p = scalar(node, what);
    if (p.empty()) error(node, what + " is empty");
    return (p.is_absolute() ? p : dir_ / p).lexically_normal();
  }

  // "90s", "10m", "2h", "500ms", or a number of seconds.
  std::chrono::milliseconds duration(const DocNode& node, const std::string& what) {
    const std::string text = scalar(node, what);
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) {
      ++digits;
    }
    const std::string unit = text.substr(digits);
    long long factor = unit == "ms"                  ? 1
                       : unit == "s" || unit.empty() ? 1000
                       : unit == "m"                 ? 60000
                       : unit == "h"                 ? 3600000
                                                     : 0;
    if (digits == 0 || digits > 9 || factor == 0) {
      error(node, what + " must be a duration such as 90s, 10m or 2h, not \"" + text + "\"");
      return std::chrono::milliseconds(0);
    }
    const long long ms = std::stoll(text.substr(0, digits)) * factor;
    if (ms > kLongestDurationMs) {
      error(node, what + " is at most 30 days, not \"" + text + "\"");
      return std::chrono::milliseconds(0);
    }
    return std::chrono::milliseconds(ms);
  }

  GatewayFileServer server(const DocNode& key, const DocNode& body) {
    GatewayFileServer s;
    s.name = key.Scalar();
    if (std::string problem = mcpServerNameError(s.name); !problem.empty()) {
      error(key, "the server name \"" + s.name + "\": " + problem);
    }
    if (!body.IsMap()) {
      error(body, "the server \"" + s.name + "\" must be a mapping (command: or url:, ...)");
      return s;
    }
    const DocNode* command = nullptr;
    const DocNode* headers = nullptr;
    std::set<std::string> seen;
    for (size_t i = 0; i < body.size(); ++i) {
      const DocNode& k = body.key(i);
      const DocNode& v = body.value(i);
      const std::string field = k.Scalar();
      if (!seen.insert(field).second) error(k, "\"" + field + "\" is given twice");
      if (field == "command") {
        command = &k;
        s.command = strings(v, "command");
        if (s.command.empty() || s.command[0].empty()) error(v, "command is empty");
      } else if (field == "url") {
        s.url = scalar(v, "url");
        try {
          (void)mcp::upstreamUrl(s.url);  // a scheme and host it may use, now
        } catch (const std::exception& e) {
          const std::string why = e.what();  // "--url URL: ...", said of the key here
          error(v, why.starts_with("--url ") ? why.substr(2) : why);
        }
      } else if (field == "headers") {
        headers = &k;
        if (!v.IsMap()) {
          error(v, "headers must be a mapping of header names to values");
          continue;
        }
        std::vector<std::string> lines;
        for (size_t h = 0; h < v.size(); ++h) {
          lines.push_back(v.key(h).Scalar() + ": " + scalar(v.value(h), "a header's value"));
        }
        auto read = upstreamHeaders(lines);
        if (!read) {
          error(v, read.error());
        } else {
          s.headers = std::move(*read);
        }
      } else if (field == "workspaces") {
        for (const DocNode& item : v.IsSequence() ? v.items() : std::vector<DocNode>{v}) {
          s.workspaces.push_back(path(item, "workspaces").string());
        }
      } else if (field == "idle_stop") {
        s.idle_stop = duration(v, "idle_stop");
      } else if (field == "sandbox") {
        const std::string flag = scalar(v, "sandbox");
        if (flag != "true" && flag != "false") error(v, "sandbox must be true or false");
        s.sandbox = flag == "true";
      } else if (field == "policy") {
        if (v.IsMap()) {
          s.policy_section = &v;
        } else {
          for (const DocNode& item : v.IsSequence() ? v.items() : std::vector<DocNode>{v}) {
            s.policy_files.push_back(path(item, "policy"));
          }
        }
      } else {
        error(k, "unknown key \"" + field +
                     "\" for a server (command, url, headers, workspaces, idle_stop, sandbox, "
                     "policy)");
      }
    }
    if (s.command.empty() == s.url.empty() && !failed()) {
      error(key, "the server \"" + s.name + "\" needs a command or a url (one of the two)");
    }
    if (headers != nullptr && s.url.empty()) error(*headers, "headers go with url");
    if (s.sandbox && command == nullptr) error(key, "sandbox confines a command, not a url");
    return s;
  }

 private:
  std::string name_;
  fs::path dir_;
  std::vector<PolicyDiagnostic> errors_;
};

}  // namespace

GatewayFile readGatewayFile(const fs::path& file) {
  GatewayFile out;
  out.path = file.string();
  const std::string text = detail::readBoundedFile(file, kMaxPolicyFileBytes, "gateway file");
  out.root = std::make_shared<DocNode>(detail::parseYamlDocument(text, out.path));
  const fs::path dir = fs::absolute(file).parent_path();
  GatewayFileReader reader(out.path, dir);
  const DocNode& root = *out.root;
  const DocNode* servers = nullptr;
  if (!root.IsMap()) {
    reader.error(root, "a gateway file is a mapping with a servers: key");
  } else {
    for (size_t i = 0; i < root.size(); ++i) {
      if (root.key(i).Scalar() == "servers") {
        servers = &root.value(i);
      } else {
        reader.error(root.key(i),
                     "unknown key \"" + root.key(i).Scalar() + "\" (a gateway file has servers:)");
      }
    }
    if (servers == nullptr) reader.error(root, "the gateway file names no servers (servers:)");
  }
  if (servers != nullptr && (!servers->IsMap() || servers->size() == 0)) {
    reader.error(*servers, "servers: must map each server's name to its command or url");
  } else if (servers != nullptr) {
    std::set<std::string> names;
    for (size_t i = 0; i < servers->size(); ++i) {
      const DocNode& key = servers->key(i);
      if (!names.insert(key.Scalar()).second) {
        reader.error(key, "two servers are named \"" + key.Scalar() + "\"");
      }
      out.servers.push_back(reader.server(key, servers->value(i)));
    }
  }
  if (reader.failed()) throw PolicyError(reader.take());
  return out;
}

void mergeServerPolicy(Policy& policy, const GatewayFile& file, const GatewayFileServer& server) {
  for (const fs::path& policy_file : server.policy_files) {
    mergePolicyFile(policy, policy_file, PolicyLayer::Explicit);
  }
  if (server.policy_section != nullptr) {
    detail::mergeDocument(policy,
                          detail::parsePolicyTree(*server.policy_section, file.path,
                                                  PolicyLayer::Explicit, policy.tools),
                          PolicyLayer::Explicit, true);
  }
}

}  // namespace toolguard::cli
