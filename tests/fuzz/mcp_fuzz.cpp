// libFuzzer target: the MCP proxy's message reader. The bytes are cut into
// lines by the proxy's LineSplitter (chunk sizes from the first byte), and
// every line goes through the scanner that routes relayed messages
// (scanMessage) and the strict parser that reads the client's messages. The
// oracle: a line the scanner does not call invalid is JSON as a whole (else
// it would be relayed as it came), the scanner and the parsed message agree
// on kind, id and method, and a parsed message written back as a line
// (toLine) parses to the same message.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/line_io.hpp"
#include "toolguard/strict_json.hpp"

namespace {

using nlohmann::json;
using namespace toolguard::mcp;

constexpr size_t kMaxLine = 2048;

void checkLine(std::string_view line) {
  if (line.empty() || line.size() > kMaxLine) __builtin_trap();
  if (line.find('\n') != std::string_view::npos) __builtin_trap();
  const MessageShape shape = scanMessage(line);
  // nlohmann reads a NUL byte as the end of the text; JSON text never holds one.
  const bool is_json = json::accept(line) && line.find('\0') == std::string_view::npos;
  if (shape.kind != MessageKind::Invalid && !is_json) __builtin_trap();
  if (shape.kind == MessageKind::Invalid && shape.problem.empty()) __builtin_trap();

  const toolguard::StrictJson strict =
      toolguard::parseStrictJson(line, std::numeric_limits<size_t>::max());
  if (strict.value.has_value() != (strict.problem == toolguard::StrictJsonProblem::None)) {
    __builtin_trap();
  }
  if (!strict.value) {
    if (strict.error.empty()) __builtin_trap();
    if (strict.problem == toolguard::StrictJsonProblem::Syntax && is_json) __builtin_trap();
    return;
  }
  if (!is_json) __builtin_trap();
  const json& message = *strict.value;
  const MessageShape parsed = shapeOf(message);
  if (parsed.kind != shape.kind) __builtin_trap();
  if (shape.kind != MessageKind::Batch && parsed.id != shape.id) __builtin_trap();
  if (parsed.method != shape.method) __builtin_trap();
  const json again = json::parse(toLine(message), nullptr, false);
  if (again.is_discarded() || again != message) __builtin_trap();
  if (message.is_array()) {
    for (const json& element : message) (void)shapeOf(element);
  }
  (void)toLine(errorResponse(shape.id, kInvalidRequest, "invalid message: " + shape.problem));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  toolguard::fuzz::FuzzInput input(data, size);
  const size_t chunk = 1 + input.takeByte();
  const std::string_view bytes = input.rest();
  LineSplitter splitter(kMaxLine);
  const auto on_line = [](std::string_view line) { checkLine(line); };
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    splitter.feed(bytes.substr(at, chunk), on_line, [] {});
  }
  splitter.finish(on_line);
  return 0;
}
