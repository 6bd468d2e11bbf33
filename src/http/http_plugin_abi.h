#pragma once
/* Internal: the C interface between the library and libtoolguard-http.so, the
 * plugin that holds the HTTP client (cpp-httplib with OpenSSL). The plugin is
 * loaded only when a request is sent, so a `toolguard check` never loads
 * OpenSSL or the C++ HTTP stack. Plain C so that nothing of either side's C++
 * runtime crosses: strings go as pointer and size, callbacks with a context. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever the layout below changes; the loader refuses any other. */
#define TOOLGUARD_HTTP_ABI_VERSION 1

/* How a transfer failed (cpp-httplib's Error, as far as the caller tells them apart). */
enum toolguard_http_failure {
  TOOLGUARD_HTTP_OK = 0,
  TOOLGUARD_HTTP_READ = 1,
  TOOLGUARD_HTTP_WRITE = 2,
  TOOLGUARD_HTTP_CONNECTION_TIMEOUT = 3,
  TOOLGUARD_HTTP_OTHER = 4
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
  /* Polled every 20 ms from a second thread while the transfer runs. */
  int (*cancelled)(void* context);
};

/* What became of a transfer. */
struct toolguard_http_outcome {
  int failure;            /* enum toolguard_http_failure */
  char failure_text[256]; /* cpp-httplib's name of the failure, or why no client was made */
  int client_made;        /* 0: the origin could not be used at all */
};

/* The plugin's one entry point, exported as toolguard_http_post_v1. */
typedef void (*toolguard_http_post_fn)(const struct toolguard_http_post* request,
                                       struct toolguard_http_outcome* outcome);

#ifdef __cplusplus
}
#endif
