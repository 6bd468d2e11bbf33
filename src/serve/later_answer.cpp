// An answer given later, from another thread (http_server.hpp).
#include "serve/later_answer_internal.hpp"

namespace toolguard::serve {

void LaterAnswer::Internal::take(LaterAnswer& later, std::function<void(HttpResponse)> deliver) {
  std::unique_lock<std::mutex> lock(later.mutex_);
  if (later.early_) {
    std::unique_ptr<HttpResponse> early = std::move(later.early_);
    lock.unlock();
    deliver(std::move(*early));
    return;
  }
  later.deliver_ = std::move(deliver);
}

void LaterAnswer::complete(HttpResponse response) {
  std::function<void(HttpResponse)> deliver;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (completed_) return;
    completed_ = true;
    if (!deliver_) {
      early_ = std::make_unique<HttpResponse>(std::move(response));
      return;
    }
    deliver = std::move(deliver_);
  }
  deliver(std::move(response));
}

}  // namespace toolguard::serve
