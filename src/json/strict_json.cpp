// Strict JSON: nlohmann's SAX parser feeding a small DOM builder that finds
// a repeated key when it inserts it (the object's own map says so: no key
// sets on the side) and refuses nesting past a limit before it is built.
#include "toolguard/strict_json.hpp"

#include <vector>

#include "json/json_error.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

// Builds the value from SAX events; stops (returns false) at the first problem.
class StrictBuilder {
 public:
  StrictBuilder(json& root, size_t max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() { return put(nullptr); }
  bool boolean(bool value) { return put(value); }
  bool number_integer(json::number_integer_t value) { return put(value); }
  bool number_unsigned(json::number_unsigned_t value) { return put(value); }
  bool number_float(json::number_float_t value, const std::string& /*text*/) { return put(value); }
  bool string(std::string& value) { return put(std::move(value)); }
  bool binary(json::binary_t& value) { return put(std::move(value)); }

  bool start_object(std::size_t /*size*/) { return open(json::value_t::object); }
  bool start_array(std::size_t /*size*/) { return open(json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& name) {
    Frame& frame = frames_.back();
    auto& object = frame.container->get_ref<json::object_t&>();
    // try_emplace leaves `name` untouched when the key is already there.
    auto [it, inserted] = object.try_emplace(std::move(name));
    if (!inserted) {
      result_.problem = StrictJsonProblem::DuplicateKey;
      result_.pointer = pointerTo(it->first);
      result_.error = "duplicate key \"" + it->first + "\" at " + result_.pointer +
                      " (a key twice in one object: readers disagree on which value counts)";
      return false;
    }
    frame.key = &it->first;
    slot_ = &it->second;
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& error) {
    result_.problem = StrictJsonProblem::Syntax;
    result_.error = detail::jsonErrorSentence(error);
    return false;
  }

  StrictJson& result() { return result_; }

 private:
  struct Frame {
    json* container;
    const std::string* key = nullptr;  // objects: the key being filled
  };

  // Where the next value goes: the root, the next element of an array, or
  // the slot the last key made.
  json* next() {
    if (frames_.empty()) return &root_;
    json* container = frames_.back().container;
    if (container->is_array()) {
      auto& array = container->get_ref<json::array_t&>();
      array.emplace_back();
      return &array.back();
    }
    return slot_;
  }

  template <typename Value>
  bool put(Value&& value) {
    *next() = json(std::forward<Value>(value));
    return true;
  }

  bool open(json::value_t type) {
    if (frames_.size() >= max_depth_) {
      result_.problem = StrictJsonProblem::TooDeep;
      result_.error = "nested deeper than " + std::to_string(max_depth_) + " levels";
      return false;
    }
    json* container = next();
    *container = json(type);
    // A container's address is stable while it is open: only the innermost
    // open container grows.
    frames_.push_back(Frame{container});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  // The pointer of `repeated` inside the innermost open object.
  std::string pointerTo(const std::string& repeated) const {
    json::json_pointer pointer;
    for (size_t i = 0; i + 1 < frames_.size(); ++i) {
      const Frame& frame = frames_[i];
      if (frame.container->is_array()) {
        pointer /= frame.container->size() - 1;
      } else {
        pointer /= *frame.key;
      }
    }
    pointer /= repeated;
    return pointer.to_string();
  }

  json& root_;
  size_t max_depth_;
  std::vector<Frame> frames_;
  json* slot_ = nullptr;
  StrictJson result_;
};

}  // namespace

StrictJson parseStrictJson(std::string_view text, size_t max_depth) {
  // The JSON library reads a NUL as the end of the text, so "{...}\0{...}"
  // would be the first value alone; JSON text never holds a NUL (not even
  // inside a string, where it is written \u0000).
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    StrictJson refused;
    refused.problem = StrictJsonProblem::Syntax;
    refused.error = "a NUL byte at offset " + std::to_string(nul) +
                    " (JSON text never holds one; inside a string it is written \\u0000)";
    return refused;
  }
  json value;
  StrictBuilder builder(value, max_depth);
  bool accepted = false;
  try {
    accepted = json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json,
                               /*strict=*/true, /*ignore_comments=*/false);
  } catch (const json::exception& e) {  // the library's own limits (sizes)
    builder.result().problem = StrictJsonProblem::Syntax;
    builder.result().error = detail::jsonErrorSentence(e);
  }
  StrictJson result = std::move(builder.result());
  if (accepted && result.problem == StrictJsonProblem::None) {
    result.value = std::move(value);
  } else if (result.problem == StrictJsonProblem::None) {
    result.problem = StrictJsonProblem::Syntax;
    result.error = "invalid JSON";
  }
  return result;
}

}  // namespace toolguard
