// toolguard-serve: the program behind `toolguard serve` (the toolguard
// command hands `serve ...` to it, so a hook process never loads the HTTP
// server or libpq). Runs the decision service, and manages its tokens and
// its database's schema.
#include <signal.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <map>

#include "approval/store_file_io.hpp"
#include "audit/audit_detail.hpp"
#include "cli/commands.hpp"
#include "cli/mcp_options.hpp"
#include "command_line/unknown_command.hpp"
#include "serve/audit_shipper.hpp"
#include "serve/http_server.hpp"
#include "serve/listen_address.hpp"
#include "serve/mcp_http_face.hpp"
#include "serve/serve_service.hpp"
#include "serve/store_commands.hpp"
#include "store/postgres_service_store.hpp"
#include "store/token_names.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/policy_error.hpp"

namespace {

using namespace toolguard;

constexpr int kExitError = 2;

struct ServeOptions {
  std::string listen = "127.0.0.1:8787";
  std::string socket;
  std::string store = "file";
  std::string home;
  std::vector<std::string> policy_files;
  std::vector<std::string> profiles;
  bool no_builtin = false;
  long max_wait_s = 600;
  size_t max_pending = 20;
  double rate = 2000;
  size_t max_body = 1 << 20;
  unsigned idle_timeout_s = 15;
  unsigned max_connections = 4096;
  unsigned max_connections_per_address = 256;
  unsigned request_deadline_s = 10;
  size_t max_handlers = 256;
  std::string tls_certificate, tls_key, tls_client_ca;
  long keep_asks_s = 86400;  // answered and expired asks are deleted this long after expiry
  long session_hours = 12;
  std::string ask_webhook;
  std::string ask_webhook_secret_file;
  std::string audit_ship;
  std::string audit_ship_secret_file;
  size_t audit_ship_backlog = 0;  // 0: not given (AuditShipper::kDefaultMaxBacklog)
  std::string public_url;
  bool two_person = false;
};

// A signing secret (`option`'s): FILE's text without its line end; at least
// 16 bytes (a short secret is guessed).
std::string signingSecret(const std::string& file, const std::string& option) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(option + ": cannot read " + file);
  std::string secret((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  if (secret.size() < 16) {
    throw std::runtime_error(option + ": " + file +
                             " holds fewer than 16 bytes; use a long random secret");
  }
  return secret;
}

serve::HttpServerOptions httpServerOptions(const ServeOptions& o) {
  serve::HttpServerOptions h;
  h.max_body_bytes = o.max_body;
  h.max_connections = o.max_connections;
  h.max_connections_per_address = o.max_connections_per_address;
  h.idle_timeout_s = o.idle_timeout_s;
  h.request_deadline_s = o.request_deadline_s;
  h.max_handlers = o.max_handlers;
  h.max_queued = o.max_handlers * 4;
  h.tls = serve::TlsFiles{o.tls_certificate, o.tls_key, o.tls_client_ca};
  return h;
}

// The policy files' stamps, to notice a change (nullopt: missing or unreadable).
std::map<std::string, std::optional<detail::FileStamp>> stamps(
    const std::vector<std::string>& files) {
  std::map<std::string, std::optional<detail::FileStamp>> out;
  for (const std::string& f : files) {
    try {
      out[f] = detail::statStoreFile(f);
    } catch (const std::exception&) {
      out[f] = std::nullopt;
    }
  }
  return out;
}

int runService(const ServeOptions& o) {
  // Signals are taken by the main thread alone (sigtimedwait below).
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGHUP, SIGINT, SIGTERM}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // Every line the store keeps is shipped. Made before the store, so that
  // it outlives it: the store's last writes (at its close) are shipped too.
  std::unique_ptr<serve::AuditShipper> shipper;
  if (!o.audit_ship_secret_file.empty() && o.audit_ship.empty()) {
    throw std::runtime_error("--audit-ship-secret needs --audit-ship");
  }
  if (o.audit_ship_backlog != 0 && o.audit_ship.empty()) {
    throw std::runtime_error("--audit-ship-backlog needs --audit-ship");
  }
  if (!o.audit_ship.empty()) {
    shipper = std::make_unique<serve::AuditShipper>(
        o.audit_ship,
        o.audit_ship_secret_file.empty()
            ? std::string()
            : signingSecret(o.audit_ship_secret_file, "--audit-ship-secret"),
        o.audit_ship_backlog != 0 ? o.audit_ship_backlog : serve::AuditShipper::kDefaultMaxBacklog);
  }
  std::shared_ptr<store::ServiceStore> store = store::openStore(o.store, toolguardHome(o.home));
  if (shipper) {
    store->onKeptAudit([s = shipper.get()](const std::string& line) { s->kept(line); });
  }
  serve::ServiceOptions service_options;
  for (const std::string& f : o.policy_files) service_options.policy_files.emplace_back(f);
  service_options.profiles = o.profiles;
  service_options.builtin = !o.no_builtin;
  service_options.max_wait = std::chrono::seconds(o.max_wait_s);
  service_options.max_pending_asks_per_token = o.max_pending;
  service_options.requests_per_second_per_token = o.rate;
  service_options.session_lifetime = std::chrono::hours(o.session_hours);
  // A long poll holds a handler's thread: a quarter of them at most.
  service_options.max_waiting_polls = std::max<size_t>(1, o.max_handlers / 4);
  if (!o.ask_webhook.empty() && o.public_url.empty()) {
    throw std::runtime_error(
        "--ask-webhook needs --public-url: the address people open the queue at, for the "
        "notice's link");
  }
  service_options.ask_webhook = o.ask_webhook;
  if (!o.ask_webhook_secret_file.empty()) {
    if (o.ask_webhook.empty()) throw std::runtime_error("--ask-webhook-secret needs --ask-webhook");
    service_options.ask_webhook_secret =
        signingSecret(o.ask_webhook_secret_file, "--ask-webhook-secret");
  }
  service_options.public_url = o.public_url;
  service_options.two_person = o.two_person;
  // Names from before the rules keep working (the session key is a tuple,
  // so a '/' in one reaches no other token's session); say so once.
  for (const store::TokenRecord& t : store->tokens()) {
    if (t.revoked) continue;
    if (std::string problem = store::tokenNameProblem(t.name); !problem.empty()) {
      std::cerr << "toolguard serve: the token '" << t.name
                << "' has a name new tokens may not have; it keeps working (add a new one and "
                   "revoke it)\n";
    }
    if (t.owner.empty()) {
      std::cerr << "toolguard serve: the token '" << t.name << "' has no owner"
                << (o.two_person ? ": with --two-person its asks and answers are refused"
                                 : ": only the token itself is kept from answering its asks")
                << " (add a new one with --owner and revoke it)\n";
    }
  }
  serve::Service service(service_options, store);
  serve::HttpServer server([&](const serve::HttpRequest& r) { return service.handle(r); },
                           httpServerOptions(o),
                           [&](serve::HttpRequest& r) { return service.answerAtOnce(r); },
                           [&](serve::HttpRequest& r) { return service.answerFromHead(r); });
  auto [host, port] = serve::listenAddress(o.listen);
  const int bound = server.listenTcp(host, port);
  if (!o.socket.empty()) server.listenUnix(o.socket);
  server.start();
  std::cerr << "toolguard serve: store " << store->describe() << "\n";
  if (!o.socket.empty()) std::cerr << "toolguard serve: listening on unix:" << o.socket << "\n";
  const std::string shown_host = serve::hostInUrl(host);
  const std::string scheme = o.tls_certificate.empty() ? "http" : "https";
  std::cout << "listening on " << scheme << "://" << shown_host << ":" << bound << std::endl;

  auto seen = stamps(o.policy_files);
  auto prune = [&] {
    try {
      store->pruneAsks(std::chrono::seconds(o.keep_asks_s));
    } catch (const std::exception& e) {
      std::cerr << "toolguard serve: old asks could not be deleted: " << e.what() << "\n";
    }
    try {
      store->pruneSessions();
    } catch (const std::exception& e) {
      std::cerr << "toolguard serve: ended web sessions could not be deleted: " << e.what() << "\n";
    }
  };
  prune();
  auto pruned = std::chrono::steady_clock::now();
  auto reload = [&](const char* why) {
    const std::string problem = service.reloadPolicy();
    if (problem.empty()) {
      std::cerr << "toolguard serve: policy reloaded (" << why << ")\n";
    } else {
      std::cerr << "toolguard serve: the policy did not load (" << why
                << "); the previous one keeps serving:\n"
                << problem << "\n";
    }
  };
  for (;;) {
    timespec second{1, 0};
    const int got = sigtimedwait(&signals, nullptr, &second);
    if (got == SIGINT || got == SIGTERM) break;
    if (got == SIGHUP) {
      seen = stamps(o.policy_files);
      reload("SIGHUP");
      continue;
    }
    if (std::chrono::steady_clock::now() - pruned >=
        std::chrono::seconds(std::min(60L, o.keep_asks_s))) {
      prune();
      pruned = std::chrono::steady_clock::now();
    }
    if (auto now = stamps(o.policy_files); now != seen) {
      seen = now;
      reload("a policy file changed");
    }
  }
  std::cerr << "toolguard serve: stopping\n";
  server.stop();
  return 0;
}

void addStoreOptions(CLI::App& cmd, std::string& store, std::string& home) {
  cmd.add_option("--store", store, "'file' (the files under TOOLGUARD_HOME) or a postgresql:// URL")
      ->capture_default_str();
  cmd.add_option("--home", home, "toolguard's home for the file store (else $TOOLGUARD_HOME)");
}

}  // namespace

// `toolguard mcp --listen ...` (handed over by the toolguard command): the
// same command line, read by the same options, served over HTTP here.
int runMcpOverHttp(int argc, char** argv) {
  CLI::App app{"toolguard mcp over HTTP", "toolguard"};
  int exit_code = 0;
  cli::addMcpCommand(app, exit_code);
  app.require_subcommand(1);
  cli::setMcpHttpFace([](const cli::McpOptions& o, const McpGatewayOptions& gateway) {
    serve::McpHttpFaceOptions face;
    face.listen = o.listen;
    face.store = o.store;
    face.home = o.guard.home;
    face.allowed_origins = o.allowed_origins;
    face.max_sessions = o.max_sessions;
    face.max_streams = o.max_streams;
    face.requests_per_second_per_token = o.rate;
    face.max_body_bytes = o.max_body;
    face.tls_certificate = o.tls_certificate;
    face.tls_key = o.tls_key;
    return serve::serveMcpOverHttp(face, gateway);
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return exit_code;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "mcp") return runMcpOverHttp(argc, argv);
  CLI::App app{
      "toolguard serve: one decision service for many agents.\n"
      "Serves POST /v1/check, the asks (GET /v1/asks, POST /v1/asks/ID/answer), GET /v1/audit, "
      "the approvals, the web queue at / (sign in with an approver's token), GET /healthz and "
      "GET /metrics; tokens made with `toolguard serve token add`. See docs/serve.md.",
      "toolguard serve"};
  ServeOptions o;
  app.add_option("--listen", o.listen, "HOST:PORT to listen on (loopback by default)")
      ->capture_default_str();
  app.add_option("--socket", o.socket, "also listen on a Unix socket at PATH (mode 0660)");
  addStoreOptions(app, o.store, o.home);
  app.add_option("--policy", o.policy_files,
                 "policy files over the built-in policy (reloaded "
                 "on change and on SIGHUP)");
  app.add_option("--profile", o.profiles, "ready-made profiles over the default");
  app.add_flag("--no-builtin", o.no_builtin, "without the built-in policy");
  app.add_option("--max-wait", o.max_wait_s, "the longest an ask may wait for a person, seconds")
      ->check(CLI::Range(1L, 86400L))
      ->capture_default_str();
  app.add_option("--max-pending-asks", o.max_pending, "asks one token may have waiting")
      ->check(CLI::Range(size_t{1}, size_t{100000}))
      ->capture_default_str();
  app.add_option("--rate", o.rate, "requests a second one token may make")
      ->check(CLI::Range(1.0, 1e9))
      ->capture_default_str();
  app.add_option("--max-body", o.max_body, "the largest request body, bytes")
      ->check(CLI::Range(size_t{1024}, size_t{64} << 20))
      ->capture_default_str();
  app.add_option("--idle-timeout", o.idle_timeout_s, "close a connection silent this many seconds")
      ->check(CLI::Range(1u, 3600u))
      ->capture_default_str();
  app.add_option("--keep-asks", o.keep_asks_s,
                 "delete answered and expired asks this many seconds after they expired (the "
                 "audit keeps the answers)")
      ->check(CLI::Range(1L, 100L * 86400L))
      ->capture_default_str();
  app.add_option("--max-connections", o.max_connections,
                 "connections open at once (an idle one costs no thread)")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  app.add_option("--max-connections-per-address", o.max_connections_per_address,
                 "connections open at once from one IP address (0: no limit)")
      ->check(CLI::Range(0u, 1000000u))
      ->capture_default_str();
  app.add_option("--request-deadline", o.request_deadline_s,
                 "a request's headers and body must arrive within this many seconds")
      ->check(CLI::Range(1u, 3600u))
      ->capture_default_str();
  app.add_option("--max-handlers", o.max_handlers,
                 "requests handled at once (asks and long polls wait in one); past it and a "
                 "queue of four times as many, 503 with Retry-After")
      ->check(CLI::Range(size_t{4}, size_t{100000}))
      ->capture_default_str();
  app.add_option("--tls-cert", o.tls_certificate,
                 "serve HTTPS on --listen with this PEM certificate (chain)");
  app.add_option("--tls-key", o.tls_key, "the PEM private key of --tls-cert");
  app.add_option("--tls-client-ca", o.tls_client_ca,
                 "PEM CA certificates whose client certificates identify agents: a verified "
                 "certificate's common name is the agent token's name");
  app.add_option("--session-hours", o.session_hours,
                 "how long a sign-in to the web queue lasts, hours")
      ->check(CLI::Range(1L, 24L * 30L))
      ->capture_default_str();
  app.add_option("--ask-webhook", o.ask_webhook,
                 "POST a small JSON notice of each new ask to URL (http://, https:// or "
                 "unix:/PATH), with a link to it on the web queue");
  app.add_option("--ask-webhook-secret", o.ask_webhook_secret_file,
                 "sign each webhook notice with the secret in FILE (HMAC-SHA256 of "
                 "\"TIMESTAMP.BODY\" in X-Toolguard-Signature, the time in "
                 "X-Toolguard-Timestamp)");
  app.add_option("--audit-ship", o.audit_ship,
                 "also POST every audit line the service keeps, in batches as it keeps them, to "
                 "URL (http://, https:// or unix:/PATH), as application/x-ndjson");
  app.add_option("--audit-ship-secret", o.audit_ship_secret_file,
                 "sign each batch of --audit-ship as --ask-webhook-secret signs a notice");
  app.add_option("--audit-ship-backlog", o.audit_ship_backlog,
                 "lines of --audit-ship held while the collector does not take them "
                 "(100000); past them (or 64 MiB) the oldest are dropped from shipping, and "
                 "the next batch says how many (the store keeps them)")
      ->check(CLI::Range(size_t{1}, size_t{10000000}));
  app.add_flag("--two-person", o.two_person,
               "an answer must come from a second person: never from the asking token's owner "
               "(an admin's included), never with a token that has no owner");
  app.add_option("--public-url", o.public_url,
                 "the web queue's address as people reach it (https://guard.example.com): "
                 "the webhook's links, and the origin the page's requests may come from "
                 "behind a proxy");

  CLI::App* token = app.add_subcommand("token", "Manage the service's bearer tokens");
  token->require_subcommand(1);
  std::string token_store = "file", token_home;
  std::string role, name, owner;
  CLI::App* add = token->add_subcommand("add", "Make a token; prints it alone on the last line");
  add->add_option("--role", role, "agent (may check), approver (may answer asks) or admin")
      ->required()
      ->check(CLI::IsMember({"agent", "approver", "admin"}));
  add->add_option("--name", name,
                  "its name (a-z, 0-9, '.', '_', '-'; at most 64); an agent token's name is the "
                  "agent's name")
      ->required();
  add->add_option("--owner", owner,
                  "the person who holds it (a-z, 0-9, '.', '_', '-', '@'): no one answers an ask "
                  "made with a token of their own")
      ->required();
  addStoreOptions(*add, token_store, token_home);
  CLI::App* list = token->add_subcommand("list", "List the tokens (never their secrets)");
  addStoreOptions(*list, token_store, token_home);
  CLI::App* revoke = token->add_subcommand("revoke", "Revoke a token by its name");
  revoke->add_option("name", name, "the token's name")->required();
  addStoreOptions(*revoke, token_store, token_home);
  CLI::App* migrate =
      app.add_subcommand("migrate", "Apply the database migrations it lacks (serve does this too)");
  addStoreOptions(*migrate, token_store, token_home);
  std::string grant_role;
  migrate
      ->add_option("--grant", grant_role,
                   "With the owner's URL in --store: grant ROLE, the service's own role, what it "
                   "needs (on the audit only SELECT and INSERT)")
      ->type_name("ROLE");

  int store_command_exit = -1;
  serve::addStoreCommands(app, store_command_exit);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      if (std::optional<std::string> unknown =
              command_line::unknownOptionMessage(app, argc, argv, "toolguard serve")) {
        std::cerr << "toolguard serve: " << *unknown << "\n";
        return kExitError;
      }
    }
    return app.exit(e);
  }
  if (store_command_exit >= 0) return store_command_exit;
  try {
    if (*migrate) {
      if (!token_store.starts_with("postgres")) {
        std::cout << "the file store has no schema to migrate\n";
        return 0;
      }
      std::vector<int> applied = store::migratePostgres(token_store);
      if (applied.empty()) std::cout << "the database is up to date\n";
      for (int v : applied) std::cout << "applied migration " << v << "\n";
      if (!grant_role.empty()) {
        store::grantServiceRole(token_store, grant_role);
        std::cout << "granted " << grant_role
                  << " the service's rights (the audit: SELECT and INSERT only)\n";
      }
      return 0;
    }
    if (*token) {
      std::unique_ptr<store::ServiceStore> s =
          store::openStore(token_store, toolguardHome(token_home));
      if (*add) {
        for (const std::string& problem :
             {store::tokenNameProblem(name), store::ownerNameProblem(owner)}) {
          if (!problem.empty()) {
            std::cerr << "toolguard serve token add: " << problem << "\n";
            return kExitError;
          }
        }
        const std::string secret = store::newToken();
        store::TokenRecord record{name, *store::parseTokenRole(role), "", false, owner, ""};
        record.created = detail::formatAuditTime(std::chrono::system_clock::now());
        s->addToken(record, store::tokenHash(secret));
        std::cerr << "token '" << name << "' (" << role << ", held by " << owner << ") added to "
                  << s->describe() << "; it is shown once:\n";
        std::cout << secret << std::endl;
        return 0;
      }
      if (*list) {
        for (const store::TokenRecord& t : s->tokens()) {
          std::cout << t.name << "\t" << store::toString(t.role) << "\t"
                    << (t.owner.empty() ? "(no owner)" : t.owner) << "\t" << t.created
                    << (t.revoked ? "\trevoked" : "")
                    << (store::tokenNameProblem(t.name).empty() ? "" : "\t(name not allowed now)")
                    << "\n";
        }
        return 0;
      }
      if (*revoke) {
        if (!s->revokeToken(name)) {
          std::cerr << "toolguard serve: no token named '" << name << "' to revoke\n";
          return 1;
        }
        std::cout << "revoked " << name << "\n";
        return 0;
      }
    }
    return runService(o);
  } catch (const PolicyError& e) {
    std::cerr << "toolguard serve: the policy did not load:\n" << e.what() << "\n";
    return kExitError;
  } catch (const std::exception& e) {
    std::cerr << "toolguard serve: " << e.what() << "\n";
    return kExitError;
  }
}
