// `toolguard serve` over TLS, with a test CA made by the openssl command:
// `toolguard check --server https://...` trusts the CA through
// SSL_CERT_FILE and shows either a bearer token or a client certificate
// whose common name is an agent token's name. Certificates from another CA,
// for a name that is not an agent, or none at all are refused: the hook
// fails closed.
#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace tls_test {

using nlohmann::json;

class ServeTls : public Serve {
 protected:
  std::string pki() const { return (dir.path() / "pki").string(); }

  // Runs the openssl command in pki(); fails the test on an error.
  void openssl(const std::vector<std::string>& args) const {
    RunResult r = runBinary("/usr/bin/openssl", args, "", {}, pki());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  // A CA named `name`: name.pem and name.key.
  void makeCa(const std::string& name) const {
    openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", name + ".key", "-out", name + ".pem", "-days", "2", "-subj", "/CN=" + name,
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
             "keyUsage=critical,keyCertSign,cRLSign"});
  }

  // A certificate `file`.pem/.key for common name `cn`, signed by CA `ca`;
  // `extensions` as an openssl extension file's lines.
  void makeCertificate(const std::string& file, const std::string& cn, const std::string& ca,
                       const std::string& extensions) const {
    openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
             file + ".key", "-out", file + ".csr", "-subj", "/CN=" + cn});
    std::ofstream(pki() + "/" + file + ".ext") << extensions;
    openssl({"x509", "-req", "-in", file + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
             "-CAcreateserial", "-out", file + ".pem", "-days", "1", "-extfile", file + ".ext"});
  }

  void SetUp() override {
    std::filesystem::create_directories(pki());
    makeCa("ca");
    makeCa("other-ca");
    makeCertificate("server", "127.0.0.1", "ca",
                    "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    const std::string client = "extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n";
    makeCertificate("bot", "bot", "ca", client);
    makeCertificate("alice", "alice", "ca", client);
    makeCertificate("stranger", "bot", "other-ca", client);
  }

  std::unique_ptr<ServeProcess> startTls() const {
    return start({"--tls-cert", pki() + "/server.pem", "--tls-key", pki() + "/server.key",
                  "--tls-client-ca", pki() + "/ca.pem"});
  }

  // `toolguard check --server URL` of `ls` with `extra` in its environment.
  RunResult checkLs(const ServeProcess& server, std::map<std::string, std::string> extra) const {
    extra.emplace("SSL_CERT_FILE", pki() + "/ca.pem");
    extra.emplace("TOOLGUARD_TOKEN", "");
    return run({"check", "--server", server.url()}, call("ls").dump(), extra);
  }

  std::map<std::string, std::string> certificate(const std::string& name) const {
    return {{"TOOLGUARD_CLIENT_CERT", pki() + "/" + name + ".pem"},
            {"TOOLGUARD_CLIENT_KEY", pki() + "/" + name + ".key"}};
  }
};

TEST_F(ServeTls, AClientCertificateOrATokenOverTlsIsAnAgent) {
  const std::string agent = token("agent", "bot");
  token("approver", "alice");
  auto server = startTls();
  ASSERT_EQ(server->url().rfind("https://", 0), 0u);

  RunResult r = checkLs(*server, certificate("bot"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "allow") << r.out;

  r = checkLs(*server, {{"TOOLGUARD_TOKEN", agent}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "allow") << r.out;

  // The audit names the agent the certificate identified.
  std::string audit = slurp((dir.path() / "home/.toolguard/audit.jsonl").string());
  EXPECT_NE(audit.find("\"bot\""), std::string::npos);
}

TEST_F(ServeTls, CertificatesThatDoNotNameAUsableAgentAreRefused) {
  token("agent", "bot");
  token("approver", "alice");
  auto server = startTls();
  struct Case {
    std::string what;
    std::map<std::string, std::string> environment;
  };
  std::map<std::string, std::string> untrusted_server = certificate("bot");
  untrusted_server["SSL_CERT_FILE"] = pki() + "/other-ca.pem";
  const std::vector<Case> cases = {
      {"a certificate from another CA", certificate("stranger")},
      {"a certificate naming an approver", certificate("alice")},
      {"no certificate and no token", {}},
      {"a server certificate the hook does not trust", untrusted_server},
      {"a certificate without its key", {{"TOOLGUARD_CLIENT_CERT", pki() + "/bot.pem"}}},
  };
  for (const Case& c : cases) {
    RunResult r = checkLs(*server, c.environment);
    EXPECT_EQ(r.exit_code, 2) << c.what << "\n" << r.out << r.err;
    EXPECT_EQ(json::parse(r.out)["verdict"], "deny") << c.what;
  }
  // A revoked agent's certificate no longer works (within the cache's second).
  ASSERT_EQ(run({"serve", "token", "revoke", "bot"}).exit_code, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  RunResult r = checkLs(*server, certificate("bot"));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  // Plain HTTP to the TLS port is no way around it.
  std::map<std::string, std::string> plain = {{"TOOLGUARD_TOKEN", "tg_x"}};
  r = run({"check", "--server", "http://127.0.0.1:" + std::to_string(server->port())},
          call("ls").dump(), plain);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

TEST_F(ServeTls, ACertificateIsShownOnlyToAnHttpsService) {
  token("agent", "bot");
  auto server = start();
  RunResult r = run({"check", "--server", server->url()}, call("ls").dump(), certificate("bot"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("https://"), std::string::npos) << r.err;
}

}  // namespace tls_test
}  // namespace toolguard::testing
