// The `sandbox:` section of policy files: reading it, merging it across the
// layers (adding guarded places and secrets tightens; adding writable places
// or exceptions, or opening the network, loosens), and the settings a
// sandboxed command gets (docs/sandbox.md).
#include <re2/re2.h>

#include <algorithm>

#include "policy_file_parser.hpp"
#include "sandbox/proxy_hosts.hpp"

namespace toolguard::detail {
namespace {

std::optional<SandboxNetwork> parseSandboxNetwork(std::string_view text) {
  if (text == "none") return SandboxNetwork::None;
  if (text == "proxy") return SandboxNetwork::Proxy;
  if (text == "loopback") return SandboxNetwork::Loopback;
  if (text == "open") return SandboxNetwork::Open;
  return std::nullopt;
}

std::optional<SandboxFallback> parseSandboxFallback(std::string_view text) {
  if (text == "ask") return SandboxFallback::Ask;
  if (text == "unconfined") return SandboxFallback::Unconfined;
  return std::nullopt;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

void PolicyFileParser::parseSandbox(const DocNode& node, PolicyDocument& doc) {
  doc.sandbox_where = where(node);
  if (!node.IsMap()) {
    error(node,
          "sandbox: expected a mapping with writable, read_only, deny_read, deny_read_except, "
          "network, hosts, when_unavailable");
    return;
  }
  for (const auto& [key, entry_value] : entries(node)) {
    const DocNode& value = entry_value;  // a lambda may not capture a structured binding (C++17)
    const std::string k = key.Scalar();
    auto places = [&](std::vector<std::string>& into) {
      into = strings(value, "sandbox." + k);
      for (const std::string& place : into) {
        if (Expected<void> characters = checkPathCharacters(place); !characters) {
          error(value, "sandbox." + k + ": " + characters.error());
        } else if (place.empty()) {
          error(value, "sandbox." + k + ": an empty place");
        }
      }
    };
    if (k == "writable") {
      places(doc.sandbox.writable);
      for (const std::string& place : doc.sandbox.writable) {
        if (!place.empty() && place[0] != '/' && place[0] != '~') {
          error(value, "sandbox.writable: " + place + " is not an absolute or ~ place");
        }
      }
    } else if (k == "read_only") {
      places(doc.sandbox.read_only);
    } else if (k == "deny_read" || k == "deny_read_except") {
      std::vector<std::string>& list =
          k == "deny_read" ? doc.sandbox.deny_read : doc.sandbox.deny_read_except;
      places(list);
      for (const std::string& glob : list) {
        if (Expected<void> checked = checkPathGlob(glob); !checked) {
          error(value, "sandbox." + k + ": " + checked.error());
        } else if (RE2 compiled(pathGlobToRegex(glob, "/home"), RE2::Quiet); !compiled.ok()) {
          error(value, "sandbox." + k + ": path glob '" + glob + "' does not compile (" +
                           compiled.error() + ")");
        }
      }
    } else if (k == "network") {
      doc.sandbox_network = named<SandboxNetwork>(value, "sandbox.network", parseSandboxNetwork,
                                                  "none, loopback, proxy, open");
    } else if (k == "hosts") {
      doc.sandbox.hosts = strings(value, "sandbox.hosts");
      for (const std::string& host : doc.sandbox.hosts) {
        if (Expected<sandbox::HostPattern> pattern = sandbox::parseHostPattern(host); !pattern) {
          error(value, "sandbox.hosts: " + pattern.error());
        }
      }
    } else if (k == "when_unavailable") {
      doc.sandbox_fallback = named<SandboxFallback>(value, "sandbox.when_unavailable",
                                                    parseSandboxFallback, "ask, unconfined");
    } else {
      error(key, unknownNameMessage("sandbox: unknown key", k, "",
                                    "writable, read_only, deny_read, deny_read_except, "
                                    "network, hosts, when_unavailable"));
    }
  }
}

void mergeSandbox(Policy& policy, const PolicyDocument& doc, PolicyLayer layer, bool trusted) {
  SandboxSettings& sandbox = policy.sandbox;
  const bool may_loosen = mayLoosenSetting(policy.sandbox_layer, layer, trusted);
  auto refuse = [&](const std::string& what) {
    policy.warnings.push_back(
        {doc.sandbox_where, what + " ignored: " + loosenRefusal(layer, trusted)});
  };
  append(sandbox.read_only, doc.sandbox.read_only);
  append(sandbox.deny_read, doc.sandbox.deny_read);
  if (!doc.sandbox.writable.empty()) {
    if (may_loosen) {
      append(sandbox.writable, doc.sandbox.writable);
    } else {
      refuse("sandbox.writable");
    }
  }
  if (!doc.sandbox.hosts.empty()) {
    if (may_loosen) {
      append(sandbox.hosts, doc.sandbox.hosts);
    } else {
      refuse("sandbox.hosts");
    }
  }
  if (!doc.sandbox.deny_read_except.empty()) {
    if (may_loosen) {
      append(sandbox.deny_read_except, doc.sandbox.deny_read_except);
    } else {
      refuse("sandbox.deny_read_except");
    }
  }
  bool set = false;
  if (doc.sandbox_network) {
    if (*doc.sandbox_network == SandboxNetwork::None || may_loosen) {
      sandbox.network = *doc.sandbox_network;
      set = true;
    } else {
      refuse(std::string("sandbox.network ") +
             (*doc.sandbox_network == SandboxNetwork::Open       ? "open"
              : *doc.sandbox_network == SandboxNetwork::Loopback ? "loopback"
                                                                 : "proxy"));
    }
  }
  if (doc.sandbox_fallback) {
    if (*doc.sandbox_fallback == SandboxFallback::Ask || may_loosen) {
      sandbox.when_unavailable = *doc.sandbox_fallback;
      set = true;
    } else {
      refuse("sandbox.when_unavailable unconfined");
    }
  }
  if (set && policy.sandbox_layer != PolicyLayer::Managed) policy.sandbox_layer = layer;
}

}  // namespace toolguard::detail

namespace toolguard {

SandboxSettings sandboxSettingsOf(const Policy& policy) {
  SandboxSettings settings = defaultSandboxSettings();
  detail::append(settings.writable, policy.sandbox.writable);
  detail::append(settings.read_only, policy.sandbox.read_only);
  detail::append(settings.deny_read, policy.sandbox.deny_read);
  detail::append(settings.deny_read_except, policy.sandbox.deny_read_except);
  settings.network = policy.sandbox.network;
  detail::append(settings.hosts, policy.sandbox.hosts);
  settings.when_unavailable = policy.sandbox.when_unavailable;
  return settings;
}

std::optional<SandboxSettings> sandboxSettingsFor(const Policy& policy,
                                                  const std::string& rule_id) {
  const bool known = std::any_of(policy.rules.begin(), policy.rules.end(),
                                 [&](const auto& rule) { return rule->id() == rule_id; });
  if (!known) return std::nullopt;
  SandboxSettings settings = sandboxSettingsOf(policy);
  const auto grant = policy.rule_sandbox_grants.find(rule_id);
  if (grant == policy.rule_sandbox_grants.end()) return settings;
  detail::append(settings.writable, grant->second.writable);
  if (!grant->second.hosts.empty()) {
    detail::append(settings.hosts, grant->second.hosts);
    // Hosts to reach open the network through the proxy, and no further
    // (the proxy's private network has its own loopback too).
    if (settings.network == SandboxNetwork::None || settings.network == SandboxNetwork::Loopback) {
      settings.network = SandboxNetwork::Proxy;
    }
  }
  return settings;
}

}  // namespace toolguard
