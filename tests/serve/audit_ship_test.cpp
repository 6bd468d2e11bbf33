// `toolguard serve --audit-ship URL`: every audit line the service keeps
// reaches a collector (a real HTTP server here), signed, numbered, in the
// chain's order, also when the collector refuses batches for a while; on
// the file store and on PostgreSQL.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <set>

#include "serve/audit_collector.hpp"
#include "serve/serve_fixture.hpp"
#include "toolguard/audit_chain.hpp"

namespace toolguard::testing {
namespace audit_ship_test {

using nlohmann::json;

const std::string kSecret = "a-long-secret-for-the-collector";

// The hex HMAC-SHA256 of `text` under `secret`.
std::string hmacHex(const std::string& secret, const std::string& text) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, &size);
  std::string hex;
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[mac[i] >> 4];
    hex += kHex[mac[i] & 15];
  }
  return hex;
}

// Decisions and refusals through a service that ships to a collector which
// refuses its first two batches: everything the audit page shows arrives,
// once, chained, in batches numbered 1, 2, ... and signed.
void everyKeptLineArrives(Serve& s) {
  const std::string agent = s.token("agent", "bot");
  const std::string admin = s.token("admin", "root");
  const std::string secret_file = s.dir.write("ship.secret", kSecret + "\n").string();
  AuditCollector collector(2);
  auto server = s.start({"--audit-ship", collector.url(), "--audit-ship-secret", secret_file});
  auto c = Serve::client(*server, agent);
  for (const char* command : {"ls", "rm -rf /", "git status", "cat ~/.ssh/id_rsa"}) {
    auto r = c->Post("/v1/check", Serve::call(command).dump(), "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
  }
  httplib::Client stranger("127.0.0.1", server->port());
  EXPECT_EQ(stranger.Post("/v1/check", Serve::call("ls").dump(), "application/json")->status, 401);
  auto page = Serve::client(*server, admin)->Get("/v1/audit");
  ASSERT_TRUE(page);
  std::set<std::string> kept_ids;
  for (const json& record : json::parse(page->body)) {
    if (record.contains("id")) kept_ids.insert(record["id"].get<std::string>());
  }
  ASSERT_GE(kept_ids.size(), 5u) << page->body;
  // Shipped within the retries' pauses (1 s, then 2 s).
  std::set<std::string> shipped_ids;
  for (int i = 0; i < 300; ++i) {
    shipped_ids.clear();
    for (const std::string& line : collector.lines()) {
      json record = json::parse(line, nullptr, false);
      if (record.is_object() && record.contains("id")) shipped_ids.insert(record.value("id", ""));
    }
    if (std::includes(shipped_ids.begin(), shipped_ids.end(), kept_ids.begin(), kept_ids.end())) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // A refused batch comes again with the same number and the same lines,
  // though more lines were kept meanwhile.
  const std::vector<AuditCollector::Batch> refused = collector.refused();
  ASSERT_EQ(refused.size(), 2u);
  for (const AuditCollector::Batch& b : refused) {
    EXPECT_EQ(b.number, "1");
    EXPECT_EQ(b.body, collector.taken().front().body);
  }
  EXPECT_TRUE(
      std::includes(shipped_ids.begin(), shipped_ids.end(), kept_ids.begin(), kept_ids.end()))
      << "kept " << kept_ids.size() << ", shipped " << shipped_ids.size();
  // Signed, numbered from 1 without a gap, by one shipper.
  const std::vector<AuditCollector::Batch> batches = collector.taken();
  ASSERT_FALSE(batches.empty());
  for (size_t i = 0; i < batches.size(); ++i) {
    const AuditCollector::Batch& b = batches[i];
    EXPECT_EQ(b.number, std::to_string(i + 1));
    EXPECT_EQ(b.shipper, batches.front().shipper);
    EXPECT_EQ(b.content_type, "application/x-ndjson");
    EXPECT_EQ(b.signature, "sha256=" + hmacHex(kSecret, b.timestamp + "." + b.body)) << i;
    EXPECT_NE(b.signature, "sha256=" + hmacHex(kSecret + "x", b.timestamp + "." + b.body));
  }
  // Each line once, each chained to the one before it.
  const std::vector<std::string> lines = collector.lines();
  for (size_t i = 1; i < lines.size(); ++i) {
    const json record = json::parse(lines[i]);
    EXPECT_EQ(record.value("prev_hash", ""), auditHash(lines[i - 1])) << lines[i];
  }
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), lines.size());
}

TEST_F(Serve, EveryAuditLineKeptIsShippedSignedAndInOrder) {
  everyKeptLineArrives(*this);
}

TEST_F(ServePostgres, EveryAuditLineKeptIsShippedSignedAndInOrder) {
  everyKeptLineArrives(*this);
}

TEST_F(Serve, AShippingSecretWithoutACollectorOrTooShortIsRefusedAtStart) {
  const std::string short_secret = dir.write("short.secret", "short\n").string();
  RunResult no_url = run(
      {"serve", "--store", store, "--listen", "127.0.0.1:0", "--audit-ship-secret", short_secret});
  EXPECT_NE(no_url.exit_code, 0);
  EXPECT_NE(no_url.err.find("--audit-ship-secret needs --audit-ship"), std::string::npos)
      << no_url.err;
  RunResult too_short = run({"serve", "--store", store, "--listen", "127.0.0.1:0", "--audit-ship",
                             "http://127.0.0.1:9/audit", "--audit-ship-secret", short_secret});
  EXPECT_NE(too_short.exit_code, 0);
  EXPECT_NE(too_short.err.find("fewer than 16 bytes"), std::string::npos) << too_short.err;
}

}  // namespace audit_ship_test
}  // namespace toolguard::testing
