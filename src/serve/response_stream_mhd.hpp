#pragma once
// Internal: a ResponseStream as libmicrohttpd sends it: a content reader
// that suspends the connection while nothing is queued, and push() and
// close() that resume it.
#include <microhttpd.h>

#include <functional>
#include <memory>

#include "serve/http_server.hpp"

namespace toolguard::serve {

/// Called once the server is done with a stream (the answer ended, or the
/// connection did); `ended_early`: before the stream was closed.
using StreamReleased =
    std::function<void(const std::shared_ptr<ResponseStream>&, bool ended_early)>;

/// A response (chunked) whose body is `stream`, sent on `connection`; null
/// when libmicrohttpd cannot make one.
MHD_Response* streamResponse(const std::shared_ptr<ResponseStream>& stream,
                             MHD_Connection* connection, StreamReleased released);

}  // namespace toolguard::serve
