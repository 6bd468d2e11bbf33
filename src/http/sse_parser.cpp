// Server-sent events, incrementally.
#include "sse_parser.hpp"

#include <string>

namespace toolguard::detail {

size_t SseParser::pendingBytes() const {
  return line_.size() + event_.event.size() + event_.data.size() + event_.error.size();
}

bool SseParser::feed(std::string_view bytes, std::vector<SseEvent>& out) {
  if (!error_.empty()) return false;
  while (!bytes.empty()) {
    if (skip_lf_) {
      skip_lf_ = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    size_t end = bytes.find_first_of("\r\n");
    std::string_view piece = bytes.substr(0, end);
    if (pendingBytes() + piece.size() > max_event_bytes_) {
      error_ = "a server-sent event exceeds " + std::to_string(max_event_bytes_) + " bytes";
      return false;
    }
    if (end == std::string_view::npos) {
      line_.append(piece);
      return true;
    }
    skip_lf_ = bytes[end] == '\r';
    if (line_.empty()) {
      processLine(piece, out);
    } else {
      line_.append(piece);
      std::string line = std::move(line_);
      line_.clear();
      processLine(line, out);
    }
    bytes.remove_prefix(end + 1);
  }
  return true;
}

bool SseParser::finish(std::vector<SseEvent>& out) {
  if (!error_.empty()) return false;
  if (!line_.empty()) {
    std::string line = std::move(line_);
    line_.clear();
    processLine(line, out);
  }
  dispatch(out);
  return true;
}

void SseParser::processLine(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    dispatch(out);
    return;
  }
  if (line.front() == ':') return;  // a comment (keep-alive)
  size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) event_.data += '\n';
    event_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    event_.event.assign(value);
  } else if (field == "id") {
    // Into the buffer: the stream's last event id moves only when the event
    // is complete (its blank line), so an event a broken connection cut is
    // asked for again on resumption.
    if (value.find('\0') == std::string_view::npos) id_buffer_.assign(value);
  } else if (field == "retry") {
    if (!value.empty() && value.size() <= 9 &&
        value.find_first_not_of("0123456789") == std::string_view::npos) {
      retry_ms_ = std::stol(std::string(value));
    }
  } else if (field == "error") {
    if (!event_.error.empty()) event_.error += '\n';
    event_.error.append(value);
  }
}

void SseParser::dispatch(std::vector<SseEvent>& out) {
  last_id_ = id_buffer_;
  if (has_data_ || !event_.error.empty()) {
    event_.id = last_id_;
    out.push_back(std::move(event_));
  }
  event_ = SseEvent{};
  has_data_ = false;
}

}  // namespace toolguard::detail
