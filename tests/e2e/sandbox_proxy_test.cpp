// The sandbox's network through toolguard's proxy (`network: proxy`), run
// for real: a sandboxed curl reaches the hosts the policy names and nothing
// else, not around the proxy, not by a second request on one connection,
// not by a name that resolves to this machine; each request is audited.
#include <netdb.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/sandbox_fixture.hpp"

namespace toolguard::testing {
namespace {

using nlohmann::json;

class SandboxProxy : public SandboxFixture {
 protected:
  SandboxProxy() : SandboxFixture("secret") {}

  void allowHosts(const std::vector<std::string>& hosts, const std::string& extra = "") const {
    std::string yaml = "sandbox:\n  network: proxy\n" + extra + "  hosts: [";
    for (size_t i = 0; i < hosts.size(); ++i) yaml += (i ? ", \"" : "\"") + hosts[i] + "\"";
    dir.write("user/sandbox.yaml", yaml + "]\n");
  }

  /// The audit log's records of requests through the proxy.
  std::vector<json> proxyRecords() const {
    std::vector<json> records;
    std::ifstream log(dir.path() / "home/.toolguard/audit.jsonl");
    for (std::string line; std::getline(log, line);) {
      json record = json::parse(line, nullptr, false);
      if (record.is_object() && record.value("tool", "") == "sandbox-network") {
        records.push_back(record);
      }
    }
    return records;
  }

  static size_t count(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
  }
};

TEST_F(SandboxProxy, ACommandReachesTheListedHostsOnlyThroughTheProxy) {
  TestHttpServer listed("from-the-listed-server");
  TestHttpServer unlisted("from-the-unlisted-server");
  allowHosts({"127.0.0.1:" + listed.portText()});
  const std::string lp = listed.portText();
  const std::string up = unlisted.portText();
  RunResult r = sandboxed(
      // plain HTTP through the proxy, then a tunnel (CONNECT), as https takes
      "curl -sS http://127.0.0.1:" + lp + "/plain; echo; curl -sS -p http://127.0.0.1:" + lp +
      "/tunnel; echo;"
      // a port the policy does not name: the proxy answers 403
      " curl -s -o /dev/null -w 'unlisted=%{http_code}\\n' http://127.0.0.1:" +
      up +
      "/x; curl -s -o /dev/null -w 'unlisted-tunnel=%{http_connect}\\n' -p http://127.0.0.1:" + up +
      "/y;"
      // around the proxy: the private network has nothing else
      " curl -s --noproxy '*' http://127.0.0.1:" +
      lp + "/direct; echo \"direct=$?\"");
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(count(r.out, "from-the-listed-server"), 2u) << r;
  EXPECT_NE(r.out.find("unlisted=403"), std::string::npos) << r;
  EXPECT_NE(r.out.find("unlisted-tunnel=403"), std::string::npos) << r;
  EXPECT_NE(r.out.find("direct=7"), std::string::npos) << r;  // curl: could not connect
  EXPECT_EQ(r.out.find("from-the-unlisted-server"), std::string::npos) << r;

  const std::vector<std::string> seen = listed.requests();
  ASSERT_EQ(seen.size(), 2u);
  // The server gets an origin-form request with the Host the proxy connected to.
  EXPECT_TRUE(seen[0].starts_with("GET /plain HTTP/1.1\r\n")) << seen[0];
  EXPECT_NE(seen[0].find("Host: 127.0.0.1:" + lp + "\r\n"), std::string::npos) << seen[0];
  EXPECT_NE(seen[0].find("Connection: close\r\n"), std::string::npos) << seen[0];
  EXPECT_TRUE(seen[1].starts_with("GET /tunnel HTTP/1.1\r\n")) << seen[1];
  EXPECT_TRUE(unlisted.requests().empty());

  // Every request is in the audit: two allowed, two refused.
  const std::vector<json> records = proxyRecords();
  ASSERT_EQ(records.size(), 4u) << json(records).dump();
  size_t allowed = 0;
  for (const json& record : records) {
    const json& args = record.at("args");
    if (record.value("verdict", "") == "allow") {
      ++allowed;
      EXPECT_EQ(args.value("port", 0), listed.port()) << record.dump();
    } else {
      EXPECT_EQ(record.value("verdict", ""), "deny") << record.dump();
      EXPECT_EQ(args.value("port", 0), unlisted.port()) << record.dump();
      EXPECT_NE(record.value("reason", "").find("is not in the sandbox's hosts"), std::string::npos)
          << record.dump();
    }
    EXPECT_EQ(args.value("host", ""), "127.0.0.1") << record.dump();
  }
  EXPECT_EQ(allowed, 2u);
}

// Request spellings, generated: whatever way a request names its target
// (case of the scheme, user info, a fragment, a second port, other spellings
// of this machine, a Host header of its own, CONNECT), the unlisted server
// gets nothing, and the listed one each request that names it plainly.
TEST_F(SandboxProxy, NoSpellingOfARequestReachesAnUnlistedServer) {
  TestHttpServer listed("listed");
  TestHttpServer unlisted("unlisted");
  allowHosts({"127.0.0.1:" + listed.portText()});
  const std::string p = listed.portText();
  const std::string q = unlisted.portText();
  const std::string a = "127.0.0.1:" + p;

  struct Probe {
    std::string head;
    bool reaches_listed;  // certainly passed on to the listed server
    bool unlisted;        // aimed, one way or another, at the unlisted one
  };
  std::vector<Probe> probes;
  const std::vector<std::string> toward_unlisted = {
      "127.0.0.1:" + q,
      "127.1:" + q,
      "localhost:" + q,
      "[::ffff:127.0.0.1]:" + q,
      "[::1]:" + q,
      a + "@127.0.0.1:" + q,
      "127.0.0.1:" + q + "#@" + a,
      "127.0.0.1:" + q + "\\@" + a,
      a + ":" + q,
      "127.0.0.1:" + q + ":" + p,
      "127.0.0.1%3a" + q,
      "127.0.0.1:+" + q,
      "127.0.0.1:0" + q,
      "2130706433:" + q,
      "0x7f000001:" + q,
      "127.0.0.1:" + q + ".",
  };
  for (const std::string scheme : {"http://", "HTTP://", "hTtP://"}) {
    for (const std::string method : {"GET", "HEAD", "DELETE"}) {
      for (const std::string path : {"/", "/x?y=1", "", "?q"}) {
        probes.push_back({method + " " + scheme + a + path + " HTTP/1.1\r\nHost: " + a + "\r\n\r\n",
                          true, false});
        // A Host header of its own does not choose the server.
        probes.push_back(
            {method + " " + scheme + a + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + q + "\r\n\r\n",
             true, false});
        for (const std::string& authority : toward_unlisted) {
          probes.push_back({method + " " + scheme + authority + path +
                                " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n",
                            false, true});
        }
      }
    }
  }
  for (const std::string& authority : toward_unlisted) {
    probes.push_back(
        {"CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n", false, true});
    probes.push_back({"connect " + authority + " HTTP/1.1\r\n\r\n", false, true});
  }
  probes.push_back({"CONNECT " + a + " HTTP/1.1\r\nHost: " + a + "\r\n\r\n", true, false});
  probes.push_back({"GET https://" + a + "/ HTTP/1.1\r\n\r\n", false, false});
  probes.push_back({"GET /relative HTTP/1.1\r\nHost: 127.0.0.1:" + q + "\r\n\r\n", false, true});

  json heads = json::array();
  for (const Probe& probe : probes) heads.push_back(probe.head);
  dir.write("ws/requests.json", heads.dump());
  // Sends each head to the proxy and prints the status it answers; through
  // an open tunnel, a request for the server behind it.
  dir.write("ws/probe.py", R"(import json, socket
for head in json.load(open('requests.json')):
    s = socket.create_connection(('127.0.0.1', 3128), timeout=10)
    s.sendall(head.encode('latin-1'))
    status = s.recv(4096).split(b' ')[1:2]
    code = status[0].decode() if status else '-'
    if head.startswith('CONNECT') and code == '200':
        s.sendall(b'GET /through HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        s.recv(4096)
    print(code)
    s.close()
)");
  RunResult r = sandboxed("python3 probe.py");
  ASSERT_EQ(r.exit_code, 0) << r;
  std::vector<std::string> codes;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) codes.push_back(line);
  ASSERT_EQ(codes.size(), probes.size()) << r;
  size_t reached = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    if (probes[i].reaches_listed) {
      ++reached;
      EXPECT_EQ(codes[i], "200") << probes[i].head;
    } else if (probes[i].unlisted) {
      EXPECT_NE(codes[i], "200") << probes[i].head;
    }
  }
  EXPECT_TRUE(unlisted.requests().empty()) << unlisted.requests().front();
  EXPECT_GE(listed.requests().size(), reached);
  for (const std::string& request : listed.requests()) {
    if (request.starts_with("GET /through ")) continue;  // through the tunnel, as sent
    EXPECT_NE(request.find("Host: " + a + "\r\n"), std::string::npos) << request;
  }
}

// A second request pipelined after the first on one plain-HTTP connection
// goes nowhere: only the first, checked, request is passed on.
TEST_F(SandboxProxy, ASecondRequestOnOneConnectionIsNotPassedOn) {
  TestHttpServer listed("listed");
  TestHttpServer unlisted("unlisted");
  allowHosts({"127.0.0.1:" + listed.portText()});
  const std::string two_requests =
      "GET http://127.0.0.1:" + listed.portText() + "/first HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n" +
      "Connection: keep-alive\\r\\n\\r\\nGET http://127.0.0.1:" + unlisted.portText() +
      "/second HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n";
  RunResult r = sandboxed(
      "python3 -c 'import socket\n"
      "s = socket.create_connection((\"127.0.0.1\", 3128), 5)\n"
      "s.sendall(b\"" +
      two_requests +
      "\")\n"
      "data = b\"\"\n"
      "while True:\n"
      " chunk = s.recv(4096)\n"
      " if not chunk: break\n"
      " data += chunk\n"
      "print(data.decode())'");
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_NE(r.out.find("listed"), std::string::npos) << r;
  EXPECT_EQ(r.out.find("unlisted"), std::string::npos) << r;
  const std::vector<std::string> seen = listed.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].find("/second"), std::string::npos) << seen[0];
  EXPECT_TRUE(unlisted.requests().empty());
}

// A listed name that resolves to this machine (or a private network) is
// refused: only an entry that names an address reaches one.
TEST_F(SandboxProxy, ANameThatResolvesToAPrivateAddressIsRefused) {
  char name[256] = {};
  ASSERT_EQ(::gethostname(name, sizeof name - 1), 0);
  addrinfo* found = nullptr;
  if (::getaddrinfo(name, nullptr, nullptr, &found) != 0 || found == nullptr) {
    GTEST_SKIP() << "this machine's name (" << name << ") does not resolve";
  }
  const bool loopback =
      found->ai_family == AF_INET &&
      (ntohl(reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr.s_addr) >> 24) == 127;
  ::freeaddrinfo(found);
  if (!loopback) GTEST_SKIP() << name << " does not resolve to a loopback address here";
  TestHttpServer server("reached");
  allowHosts({std::string(name) + ":" + server.portText()});
  RunResult r = sandboxed("curl -s -w ' status=%{http_code}' http://" + std::string(name) + ":" +
                          server.portText() + "/");
  EXPECT_NE(r.out.find("status=403"), std::string::npos) << r;
  EXPECT_NE(r.out.find("not a public address"), std::string::npos) << r;
  EXPECT_TRUE(server.requests().empty());
}

// Programs find the proxy through the usual variables; what the caller's
// environment said about proxies does not come in.
TEST_F(SandboxProxy, TheProxyVariablesNameTheProxy) {
  allowHosts({"example.com"});
  std::map<std::string, std::string> environment = env();
  environment["HTTPS_PROXY"] = "http://elsewhere.example:8080";
  environment["NO_PROXY"] = "*";
  RunResult r = runBinary(TOOLGUARD_BINARY,
                          {"sandbox", "--workspace", workspace().string(), "--", "/bin/sh", "-c",
                           "echo \"$HTTPS_PROXY|$http_proxy|$ALL_PROXY|${NO_PROXY-unset}\""},
                          "", environment, workspace().string());
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.out, "http://127.0.0.1:3128|http://127.0.0.1:3128|http://127.0.0.1:3128|unset\n");
}

// Without user namespaces there is no private network for the proxy: the
// policy's default asks (nothing runs); a policy that runs with less gets
// no network at all, never all of it.
TEST_F(SandboxProxy, WithoutAPrivateNetworkThereIsNoNetworkAtAll) {
  TestHttpServer listed("reached");
  allowHosts({"127.0.0.1:" + listed.portText()});
  const std::string get =
      "curl -s http://127.0.0.1:" + listed.portText() +
      "/; echo \"proxied=$?\"; curl -s --noproxy '*' http://127.0.0.1:" + listed.portText() +
      "/; echo \"direct=$?\"";
  RunResult asked = sandboxed(get, {"--kernel-limit", "userns=no"});
  EXPECT_EQ(asked.exit_code, 126) << asked;
  EXPECT_NE(asked.err.find("network"), std::string::npos) << asked;

  allowHosts({"127.0.0.1:" + listed.portText()}, "  when_unavailable: unconfined\n");
  RunResult r = sandboxed(get, {"--kernel-limit", "userns=no"});
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.out.find("reached"), std::string::npos) << r;
  EXPECT_NE(r.out.find("proxied=7"), std::string::npos) << r;
  EXPECT_NE(r.out.find("direct=7"), std::string::npos) << r;
  EXPECT_TRUE(listed.requests().empty());
}

// network: loopback: the command's own servers are reachable on its own
// loopback; this machine's are not, nor anything else.
TEST_F(SandboxProxy, ALoopbackOfItsOwnReachesOnlyWhatTheCommandStarted) {
  TestHttpServer outside("outside");
  dir.write("user/sandbox.yaml", "sandbox:\n  network: loopback\n");
  RunResult r = sandboxed(
      "python3 -m http.server 8765 --bind 127.0.0.1 --directory . >/dev/null 2>&1 & "
      "for i in 1 2 3 4 5 6 7 8 9 10; do curl -s -o /dev/null http://127.0.0.1:8765/ && break; "
      "sleep 0.3; done; curl -s -o /dev/null -w 'own=%{http_code}\\n' http://127.0.0.1:8765/; "
      "curl -s http://127.0.0.1:" +
      outside.portText() + "/; echo \"outside=$?\"; kill %1");
  EXPECT_NE(r.out.find("own=200"), std::string::npos) << r;
  EXPECT_NE(r.out.find("outside=7"), std::string::npos) << r;
  EXPECT_TRUE(outside.requests().empty());
}

TEST_F(SandboxProxy, ExplainSaysWhereTheNetworkGoes) {
  allowHosts({"registry.npmjs.org", "*.pythonhosted.org"});
  RunResult r = run({"sandbox", "--explain", "--workspace", workspace().string()});
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_NE(r.out.find("held:     network connections but HTTP and HTTPS through toolguard's "
                       "proxy to registry.npmjs.org, *.pythonhosted.org"),
            std::string::npos)
      << r;
}

}  // namespace
}  // namespace toolguard::testing
