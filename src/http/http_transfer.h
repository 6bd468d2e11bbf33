#pragma once
/* Internal: one HTTP POST as the chat client describes it, and what became of
 * it. The transfer itself is made by a helper program, toolguard-http
 * (cpp-httplib with OpenSSL), started only when a request is sent: so the
 * toolguard command links neither OpenSSL nor the C++ HTTP stack, and can be
 * linked statically (see http_helper.hpp). Plain C types: strings go as
 * pointer and size, callbacks with a context. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a transfer failed (cpp-httplib's Error, as far as the caller tells them
 * apart). A read or write that failed a whole timeout after the helper last
 * heard from the server is told apart from a broken connection by the helper
 * itself, on its own clock: the caller hears of the data later than the
 * helper got it, so its clock cannot tell. */
enum toolguard_http_failure {
  TOOLGUARD_HTTP_OK = 0,
  TOOLGUARD_HTTP_READ = 1,
  TOOLGUARD_HTTP_WRITE = 2,
  TOOLGUARD_HTTP_CONNECTION_TIMEOUT = 3,
  TOOLGUARD_HTTP_OTHER = 4,
  TOOLGUARD_HTTP_READ_TIMEOUT = 5,
  TOOLGUARD_HTTP_WRITE_TIMEOUT = 6
};

/* One POST and where its answer goes. */
struct toolguard_http_post {
  const char* origin; /* "scheme://host:port" */
  const char* path;
  const char* body;
  size_t body_size;
  const char* const* header_names;
  const char* const* header_values;
  size_t header_count;
  long connect_timeout_ms;
  long read_timeout_ms;
  long write_timeout_ms;
  void* context;
  /* The status and Content-Type (as sent), when the headers arrive, and once
   * more after the transfer when it produced a response. */
  void (*on_status)(void* context, int status, const char* content_type);
  /* A piece of the body; return 0 to stop the transfer. */
  int (*on_data)(void* context, const char* data, size_t size);
  /* Polled every 20 ms while the transfer runs; non-zero stops it. */
  int (*cancelled)(void* context);
  /* A client certificate and its key (PEM files) shown to an https://
   * server, or NULL for none. */
  const char* client_certificate;
  const char* client_key;
};

/* What became of a transfer. */
struct toolguard_http_outcome {
  int failure;            /* enum toolguard_http_failure */
  char failure_text[256]; /* cpp-httplib's name of the failure, or why no client was made */
  int client_made;        /* 0: the origin could not be used at all */
};

#ifdef __cplusplus
}
#endif
