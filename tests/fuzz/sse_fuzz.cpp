// libFuzzer target: the chat client's server-sent events parser. The first
// byte picks the chunk size the stream arrives in and the event size cap.
// The oracle: the events do not depend on where the chunks were cut (the
// stream fed at once gives the same events, or both fail), and a failed
// parser says why.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "http/sse_parser.hpp"

namespace {

using toolguard::detail::SseEvent;
using toolguard::detail::SseParser;

bool same(const std::vector<SseEvent>& a, const std::vector<SseEvent>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].error != b[i].error) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  toolguard::fuzz::FuzzInput input(data, size);
  const uint8_t selector = input.takeByte();
  const size_t chunk = 1 + (selector & 0x1f);
  const bool capped = (selector & 0x80) != 0;
  const size_t cap = capped ? 16 + (selector & 0x60) : 8u << 20;
  const std::string_view bytes = input.rest();

  SseParser whole(cap);
  std::vector<SseEvent> whole_events;
  const bool whole_ok = whole.feed(bytes, whole_events) && whole.finish(whole_events);
  if (!whole_ok && whole.error().empty()) __builtin_trap();

  SseParser pieces(cap);
  std::vector<SseEvent> piece_events;
  bool pieces_ok = true;
  for (size_t at = 0; at < bytes.size() && pieces_ok; at += chunk) {
    pieces_ok = pieces.feed(bytes.substr(at, chunk), piece_events);
  }
  pieces_ok = pieces_ok && pieces.finish(piece_events);
  if (!pieces_ok && pieces.error().empty()) __builtin_trap();

  if (!capped) {
    // Without a cap that can be reached, chunking must change nothing.
    if (!whole_ok || !pieces_ok || !same(whole_events, piece_events)) __builtin_trap();
  } else if (whole_ok && pieces_ok && !same(whole_events, piece_events)) {
    __builtin_trap();
  }
  return 0;
}
