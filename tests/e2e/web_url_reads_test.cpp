// Reads over HTTP that the guard allows lead only where it can show: a
// public name for the developer-assistant profile's fetches, the developer's
// own machine for curl and wget in the default policy. The neighbours are
// generated: every host spelling, scheme, port, method and extra argument
// combined, and only the known-harmless combinations are allowed.
#include <string>
#include <vector>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace web_url_reads_test {

using nlohmann::json;

struct HostSpelling {
  std::string authority;
  bool is_public = false;
  bool is_loopback = false;
};

// Hosts a request may name: public names, then every spelling of this
// machine, the cloud metadata address, private networks, private suffixes,
// names that resolve to what they spell, user info and encodings.
std::vector<HostSpelling> hostSpellings() {
  std::vector<HostSpelling> hosts;
  for (const char* name : {"example.com", "docs.python.org", "EXAMPLE.COM", "a-b.example.co.uk",
                           "xn--bcher-kva.example.org", "registry.npmjs.org"}) {
    hosts.push_back({name, true, false});
  }
  for (const char* name : {"localhost", "LOCALHOST", "127.0.0.1", "[::1]", "0.0.0.0"}) {
    hosts.push_back({name, false, true});
  }
  for (const char* name : {"169.254.169.254",
                           "[fd00:ec2::254]",
                           "metadata.google.internal",
                           "127.1",
                           "2130706433",
                           "0x7f000001",
                           "0177.0.0.1",
                           "0",
                           "127.0.0.2",
                           "[::ffff:127.0.0.1]",
                           "[0:0:0:0:0:0:0:1]",
                           "10.0.0.1",
                           "172.16.0.1",
                           "192.168.1.1",
                           "1.1.1.1",
                           "[2606:4700::1111]",
                           "host.docker.internal",
                           "printer.local",
                           "api.localhost",
                           "router.home.arpa",
                           "db.corp",
                           "x.lan",
                           "127.0.0.1.nip.io",
                           "10.0.0.1.sslip.io",
                           "localtest.me",
                           "app.lvh.me",
                           "example.com@127.0.0.1",
                           "example.com:80@169.254.169.254",
                           "localhost:1@evil.example.com",
                           "localhost@evil.example.com",
                           "127.0.0.1:@evil.example.com",
                           "%31%32%37.0.0.1",
                           "example.com\\@127.0.0.1",
                           "example.com.",
                           "exa mple.com",
                           "ex\u0430mple.com",
                           "example.123",
                           "-example.com",
                           "example",
                           "localhost.",
                           "[::1",
                           "{localhost,evil.example.com}"}) {
    hosts.push_back({name, false, false});
  }
  return hosts;
}

struct Scheme {
  std::string text;
  bool web = false;       // http or https, in any case
  bool curl_web = false;  // what curl and wget take as http: also no scheme
};

std::vector<Scheme> schemes() {
  return {{"http://", true, true},   {"https://", true, true},    {"HTTPS://", true, true},
          {"", false, true},         {"//", false, false},        {"ftp://", false, false},
          {"file://", false, false}, {"gopher://", false, false}, {"dict://", false, false}};
}

const std::vector<std::string> kPorts = {"", ":8080", ":443", ":x", ":"};
const std::vector<std::string> kPaths = {"", "/", "/api/items?page=2#top"};

// The rest of a URL after the host is well formed only with a numeric port.
bool portIsNumeric(const std::string& port) {
  return port.empty() ||
         (port.size() > 1 && port.find_first_not_of("0123456789", 1) == std::string::npos);
}

class WebUrlReads : public Cli {
 protected:
  json call(const std::string& tool, const json& args) const {
    return {{"tool", tool}, {"args", args}, {"context", {{"cwd", dir.path().string()}}}};
  }
  void add(const std::string& tool, const json& args, bool allow, const std::string& label) {
    calls_.push_back(call(tool, args));
    allowed_.push_back(allow);
    labels_.push_back(label);
  }
  // Checks every call added in one batch: allowed exactly where expected, and
  // at least `min_allows` of them, so the harmless side is exercised too.
  void expectAllowedExactlyWhereHarmless(const std::vector<std::string>& options,
                                         size_t min_allows) const {
    const std::vector<json> decisions = checkBatch(calls_, options);
    ASSERT_EQ(decisions.size(), calls_.size());
    size_t allows = 0;
    for (size_t i = 0; i < calls_.size(); ++i) {
      const std::string verdict = decisions[i].value("verdict", "");
      if (allowed_[i]) {
        ++allows;
        EXPECT_EQ(verdict, "allow") << labels_[i] << ": " << decisions[i].dump();
      } else {
        EXPECT_NE(verdict, "allow") << labels_[i] << ": " << decisions[i].dump();
      }
    }
    EXPECT_GE(allows, min_allows);
  }

 private:
  std::vector<json> calls_;
  std::vector<bool> allowed_;
  std::vector<std::string> labels_;
};

// developer-assistant: http_request, fetch and WebFetch are allowed only for
// http(s) URLs to public names, with GET or HEAD and nothing else.
TEST_F(WebUrlReads, AProfileFetchIsAllowedOnlyToAPublicName) {
  for (const HostSpelling& host : hostSpellings()) {
    for (const Scheme& scheme : schemes()) {
      for (const std::string& port : kPorts) {
        for (const std::string& path : kPaths) {
          const std::string url = scheme.text + host.authority + port + path;
          const bool allow = scheme.web && host.is_public && portIsNumeric(port);
          for (const char* tool : {"http_request", "fetch"}) {
            add(tool, {{"url", url}, {"method", "GET"}}, allow, std::string(tool) + " " + url);
          }
          add("WebFetch", {{"url", url}, {"prompt", "summarize"}}, allow, "WebFetch " + url);
        }
      }
    }
  }
  // Methods and extra arguments on a public and on a private URL.
  const std::vector<std::pair<json, bool>> methods = {{"GET", true},
                                                      {"get", true},
                                                      {"HEAD", true},
                                                      {"Head", true},
                                                      {"GET ", false},
                                                      {"OPTIONS", false},
                                                      {"TRACE", false},
                                                      {"POST", false},
                                                      {json::array({"GET"}), true},
                                                      {json::array({"GET", "PUT"}), false},
                                                      {json::object(), false},
                                                      {nullptr, false}};
  const std::vector<std::pair<std::string, json>> extras = {
      {"", nullptr},
      {"body", ""},
      {"headers", {{"X-HTTP-Method-Override", "DELETE"}}},
      {"follow_redirects", true},
      {"proxy", "http://127.0.0.1:3128"}};
  for (const std::string url :
       {"https://example.com/x", "http://169.254.169.254/latest/meta-data/"}) {
    for (const auto& [method, safe] : methods) {
      for (const auto& [name, value] : extras) {
        json args = {{"url", url}, {"method", method}};
        if (!name.empty()) args[name] = value;
        add("http_request", args, safe && name.empty() && url.starts_with("https://example"),
            "http_request " + args.dump());
      }
    }
  }
  expectAllowedExactlyWhereHarmless({"--profile", "developer-assistant"}, 100);
}

// The default policy: curl and wget read without a question only from the
// developer's own machine, however the URL spells another host.
TEST_F(WebUrlReads, CurlAndWgetReadWithoutAQuestionOnlyFromThisMachine) {
  for (const HostSpelling& host : hostSpellings()) {
    for (const Scheme& scheme : schemes()) {
      for (const std::string& port : kPorts) {
        const std::string url = scheme.text + host.authority + port + "/health";
        const bool allow = scheme.curl_web && host.is_loopback && portIsNumeric(port);
        for (const char* program : {"curl -s", "wget -q -O -"}) {
          // Single quotes keep the URL one literal word for the shell.
          const std::string command = std::string(program) + " '" + url + "'";
          add("Bash", {{"command", command}}, allow, command);
        }
      }
    }
  }
  expectAllowedExactlyWhereHarmless({"--no-user", "--no-project"}, 40);
}

}  // namespace web_url_reads_test
}  // namespace toolguard::testing
