// One POST to a toolguard service: in this process for http:// and unix:,
// through the toolguard-http helper (OpenSSL) for https://.
#include <utility>

#include "http_helper.hpp"
#include "plain_http.hpp"

namespace toolguard::detail {
namespace {

struct Collected {
  PlainHttpResponse response;
  bool too_large = false;

  static void onStatus(void* context, int status, const char* content_type) {
    auto& self = *static_cast<Collected*>(context);
    self.response.status = status;
    self.response.content_type = content_type ? content_type : "";
  }
  static int onData(void* context, const char* data, size_t size) {
    auto& self = *static_cast<Collected*>(context);
    if (self.response.body.size() + size > (16u << 20)) {
      self.too_large = true;
      return 0;
    }
    self.response.body.append(data, size);
    return 1;
  }
  static int never(void*) { return 0; }
};

}  // namespace

Expected<PlainHttpResponse> postToService(const std::string& url, const std::string& target,
                                          const std::map<std::string, std::string>& headers,
                                          const std::string& body, long timeout_ms,
                                          const ClientCertificate& certificate) {
  if (!url.starts_with("https://")) {
    if (!certificate.certificate.empty()) {
      return fail("a client certificate is shown only to an https:// service");
    }
    Expected<ServiceAddress> address = parseServiceAddress(url);
    if (!address) return fail(address.error());
    return plainHttpExchange(*address, "POST", target, headers, body, timeout_ms);
  }
  const Expected<const HttpHelper*> installed = HttpHelper::installed();
  if (!installed) return fail(installed.error());
  const HttpHelper* helper = *installed;
  std::string origin = url;
  std::string prefix;
  if (const size_t slash = origin.find('/', 8); slash != std::string::npos) {
    prefix = origin.substr(slash);
    origin.resize(slash);
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  }
  Collected collected;
  HelperPost post;
  post.origin = std::move(origin);
  post.path = prefix + target;
  post.headers.assign(headers.begin(), headers.end());
  post.body = body;
  post.timeout_ms = timeout_ms;
  post.connect_limit_ms = 5000;
  post.certificate = certificate.certificate;
  post.certificate_key = certificate.key;
  post.context = &collected;
  post.on_status = &Collected::onStatus;
  post.on_data = &Collected::onData;
  post.cancelled = &Collected::never;
  const toolguard_http_outcome outcome = helper->post(post);
  if (collected.too_large) return fail("the answer is larger than 16 MiB");
  if (outcome.client_made == 0 || outcome.failure != TOOLGUARD_HTTP_OK) {
    return fail(outcome.failure_text[0] != '\0' ? outcome.failure_text : "the request failed");
  }
  return collected.response;
}

}  // namespace toolguard::detail
