// YAML text into the policy parser's DocNode tree, with libfyaml's event
// parser: about a tenth of yaml-cpp's cost, and a hook reads the user's and
// the project's policy files in every process. The tree is the one yaml-cpp
// gives (docNodeFromYaml): plain `~`/`null`/empty scalars are null, a scalar
// in quotes or a block scalar is quoted, only the first document is read,
// aliases are copies of what their anchor names. Places are yaml-cpp's too:
// a node with an anchor or tag starts there, a quoted scalar at its quote, a
// block scalar at its `|` or `>`; an empty value (no token of its own) is
// placed right after what precedes it. Two differences, both yaml-cpp's
// mistakes: columns count characters, not bytes, and `>+`/`|+` keep every
// trailing empty line (YAML 1.2, 8.1.1.2).
#include <libfyaml.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "policy/doc_node_yaml.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

struct ParserDeleter {
  void operator()(fy_parser* parser) const { fy_parser_destroy(parser); }
};
struct DiagDeleter {
  void operator()(fy_diag* diag) const { fy_diag_unref(diag); }
};
struct EventFree {
  fy_parser* parser;
  void operator()(fy_event* event) const { fy_parser_event_free(parser, event); }
};

// The parser's first error, from its report "<input>:LINE:COLUMN: error: TEXT"
// (reports are caught, never printed; collecting them instead leaks in 0.7.12).
struct FirstError {
  bool seen = false;
  int line = 0;
  int column = 0;
  std::string message;
};

void keepFirstError(fy_diag*, void* user, const char* text, size_t length) {
  auto& first = *static_cast<FirstError*>(user);
  const std::string_view report(text, length);
  const size_t marker = report.find(": error: ");
  if (first.seen || marker == std::string_view::npos) return;
  first.seen = true;
  std::string_view message = report.substr(marker + 9);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) {
    message.remove_suffix(1);
  }
  first.message = std::string(message);
  // ":LINE:COLUMN" just before the marker.
  const std::string_view place = report.substr(0, marker);
  const size_t second = place.rfind(':');
  const size_t first_colon =
      second == std::string_view::npos ? second : place.rfind(':', second - 1);
  if (first_colon == std::string_view::npos) return;
  first.line =
      std::atoi(std::string(place.substr(first_colon + 1, second - first_colon - 1)).c_str());
  first.column = std::atoi(std::string(place.substr(second + 1)).c_str());
}

struct Place {
  std::uint32_t line = 0;    // 1-based; 0: not known
  std::uint32_t column = 0;  // 1-based
  size_t offset = 0;
};

Place placeOf(const fy_mark* mark) {
  if (mark == nullptr) return {};
  return {static_cast<std::uint32_t>(mark->line + 1), static_cast<std::uint32_t>(mark->column + 1),
          mark->input_pos};
}

std::string tokenText(fy_token* token) {
  if (token == nullptr) return "";
  size_t length = 0;
  const char* text = fy_token_get_text(token, &length);
  return text == nullptr ? std::string() : std::string(text, length);
}

bool isNullText(const std::string& text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

size_t countNodes(const DocNode& node) {
  size_t count = 1;
  if (node.IsSequence()) {
    for (const DocNode& item : node.items()) count += countNodes(item);
  } else if (node.IsMap()) {
    for (size_t i = 0; i < node.size(); ++i) {
      count += countNodes(node.key(i)) + countNodes(node.value(i));
    }
  }
  return count;
}

// Thrown when a document is better read by yaml-cpp (see singleQuoted).
struct NeedsYamlCpp {};

class EventReader {
 public:
  EventReader(fy_parser* parser, const FirstError& first_error, std::string_view text,
              const std::string& name)
      : parser_(parser), first_error_(first_error), text_(text), name_(name) {}

  DocNode read() {
    bool in_document = false;
    for (;;) {
      fy_event* event = fy_parser_parse(parser_);
      if (event == nullptr) {
        if (fy_parser_get_stream_error(parser_)) failParse();
        break;
      }
      // Freed however handle() leaves (it throws on a bad alias or a misread).
      const std::unique_ptr<fy_event, EventFree> owned(event, EventFree{parser_});
      if (handle(event, in_document)) break;
    }
    if (fy_parser_get_stream_error(parser_)) failParse();
    return std::move(root_);
  }

 private:
  struct Open {
    DocNode node;
    std::string anchor;
  };

  // Where a node starts, as yaml-cpp places it.
  Place startOf(fy_event* event) {
    Place place = placeOf(fy_event_start_mark(event));
    // An anchor or a tag comes first.
    for (fy_token* property : {fy_event_get_anchor_token(event), fy_event_get_tag_token(event)}) {
      if (property == nullptr) continue;
      Place at = placeOf(fy_token_start_mark(property));
      if (property == fy_event_get_anchor_token(event) && at.column > 1) --at.column;  // the `&`
      if (at.line != 0 && (place.line == 0 || at.offset < place.offset)) place = at;
    }
    if (event->type == FYET_ALIAS && place.column > 1) --place.column;  // the `*`
    if (event->type != FYET_SCALAR || place.line == 0) return place;
    if (fy_event_get_anchor_token(event) != nullptr || fy_event_get_tag_token(event) != nullptr) {
      return place;
    }
    switch (fy_token_scalar_style(event->scalar.value)) {
      case FYSS_SINGLE_QUOTED:
      case FYSS_DOUBLE_QUOTED:
        if (place.column > 1) --place.column;  // the opening quote
        return place;
      case FYSS_LITERAL:
      case FYSS_FOLDED:
        return blockIndicator(place);
      default:
        return place;
    }
  }

  // A block scalar's text starts on the line after its `|` or `>`.
  Place blockIndicator(Place content) const {
    const size_t line_start = content.offset >= content.column - 1
                                  ? content.offset - (content.column - 1)
                                  : std::string_view::npos;
    if (line_start == std::string_view::npos || line_start == 0 || content.line < 2) {
      return content;
    }
    const size_t header_start = text_.rfind('\n', line_start - 2);
    const size_t begin = header_start == std::string_view::npos ? 0 : header_start + 1;
    std::string_view header = text_.substr(begin, line_start - 1 - begin);
    if (size_t comment = header.find(" #"); comment != std::string_view::npos) {
      header = header.substr(0, comment);
    }
    const size_t indicator = header.find_last_of("|>");
    if (indicator == std::string_view::npos) return content;
    return {content.line - 1, static_cast<std::uint32_t>(indicator + 1), begin + indicator};
  }

  // libfyaml 0.7.12 reads two escaped quotes in a row (`'x''''y'`) wrongly,
  // so a one-line single-quoted scalar with `''` is read here from the
  // source; one over several lines sends the whole document to yaml-cpp.
  std::string singleQuoted(fy_token* token, std::string text) const {
    const Place start = placeOf(fy_token_start_mark(token));
    if (start.line == 0 || start.offset == 0 || start.offset > text_.size() ||
        text_[start.offset - 1] != '\'') {
      throw NeedsYamlCpp{};
    }
    std::string value;
    bool escaped = false;
    for (size_t i = start.offset; i < text_.size(); ++i) {
      const char c = text_[i];
      if (c == '\'') {
        if (i + 1 < text_.size() && text_[i + 1] == '\'') {
          value += '\'';
          escaped = true;
          ++i;
          continue;
        }
        return escaped ? value : text;
      }
      if (c == '\n' || c == '\r') {
        // Over several lines: libfyaml's folding is right when there is no `''`.
        if (escaped || hasEscapedQuote(i)) throw NeedsYamlCpp{};
        return text;
      }
      value += c;
    }
    throw NeedsYamlCpp{};
  }

  // Whether a `''` comes before the closing quote of the scalar that goes on at `from`.
  bool hasEscapedQuote(size_t from) const {
    for (size_t j = from; j < text_.size(); ++j) {
      if (text_[j] != '\'') continue;
      if (j + 1 < text_.size() && text_[j + 1] == '\'') return true;
      return false;
    }
    return false;
  }

  // One event; true once the first document is complete.
  bool handle(fy_event* event, bool& in_document) {
    Place place = startOf(event);
    if (place.line == 0) place = last_end_;  // an empty value: right after what precedes it
    if (const fy_mark* end = fy_event_end_mark(event)) last_end_ = placeOf(end);
    const std::uint32_t line = place.line;
    const std::uint32_t column = place.column;
    switch (event->type) {
      case FYET_DOCUMENT_START:
        in_document = true;
        return false;
      case FYET_DOCUMENT_END:
        return in_document;  // later documents are not read (as yaml-cpp's Load)
      case FYET_SCALAR: {
        std::string text = tokenText(event->scalar.value);
        if (fy_token_scalar_style(event->scalar.value) == FYSS_SINGLE_QUOTED) {
          text = singleQuoted(event->scalar.value, std::move(text));
        }
        const bool plain = event->scalar.value == nullptr ||
                           fy_token_scalar_style(event->scalar.value) == FYSS_PLAIN;
        // As yaml-cpp: a tag decides (only `!` makes a string of it); an
        // untagged scalar is null when plain and empty, `~` or `null`.
        const bool tagged = event->scalar.tag != nullptr;
        const bool quoted = tagged ? tokenText(event->scalar.tag) == "!" : !plain;
        DocNode node = !tagged && plain && isNullText(text)
                           ? DocNode::of(DocNode::Kind::Null, line, column)
                           : DocNode::scalar(text, quoted, line, column);
        complete(std::move(node), tokenText(event->scalar.anchor), line, column);
        return false;
      }
      case FYET_ALIAS: {
        const std::string anchor = tokenText(event->alias.anchor);
        auto found = anchors_.find(anchor);
        if (found == anchors_.end()) {
          fail(line, column, "invalid YAML: unknown alias '" + anchor + "'");
        }
        // The anchored node itself, with its own places (as yaml-cpp shares it).
        complete(DocNode(found->second), "", line, column, countNodes(found->second));
        return false;
      }
      case FYET_SEQUENCE_START:
        enter(line, column);
        open_.push_back({DocNode::of(DocNode::Kind::Sequence, line, column),
                         tokenText(event->sequence_start.anchor)});
        return false;
      case FYET_MAPPING_START:
        enter(line, column);
        open_.push_back({DocNode::of(DocNode::Kind::Map, line, column),
                         tokenText(event->mapping_start.anchor)});
        return false;
      case FYET_SEQUENCE_END:
      case FYET_MAPPING_END: {
        Open done = std::move(open_.back());
        open_.pop_back();
        complete(std::move(done.node), done.anchor, line, column);
        return false;
      }
      default:
        return false;
    }
  }

  // A finished node: into its parent (or the root), and under its anchor.
  void complete(DocNode node, const std::string& anchor, std::uint32_t line, std::uint32_t column,
                size_t weight = 1) {
    count_ += weight;
    if (count_ > kMaxDocNodes) {
      fail(line, column,
           "the document has more than " + std::to_string(kMaxDocNodes) +
               " nodes once its aliases are expanded");
    }
    if (!anchor.empty()) {
      // The anchor keeps a copy: it counts, so nested anchors cannot grow
      // the work past the budget.
      count_ += countNodes(node);
      if (count_ > kMaxDocNodes) {
        fail(line, column,
             "the document has more than " + std::to_string(kMaxDocNodes) +
                 " nodes once its aliases are expanded");
      }
      anchors_[anchor] = node;
    }
    if (open_.empty()) {
      root_ = std::move(node);
    } else {
      open_.back().node.add(std::move(node));
    }
  }

  // A sequence or mapping opens: deeper than kMaxDocDepth is an error, not a
  // stack that every recursive walk of the tree would overflow.
  void enter(std::uint32_t line, std::uint32_t column) {
    if (open_.size() >= kMaxDocDepth) {
      fail(line, column,
           "invalid YAML: nested more than " + std::to_string(kMaxDocDepth) + " levels deep");
    }
  }

  [[noreturn]] void fail(std::uint32_t line, std::uint32_t column, const std::string& message) {
    throw PolicyError(SourceLocation{name_, static_cast<int>(line), static_cast<int>(column)},
                      message);
  }

  // The parser's own first error, with its place.
  [[noreturn]] void failParse() {
    if (first_error_.seen) {
      throw PolicyError(SourceLocation{name_, first_error_.line, first_error_.column},
                        "invalid YAML: " + first_error_.message);
    }
    throw PolicyError(SourceLocation{name_, 0, 0}, "invalid YAML");
  }

  fy_parser* parser_;
  const FirstError& first_error_;
  std::string_view text_;
  const std::string& name_;
  Place last_end_;
  std::vector<Open> open_;
  std::map<std::string, DocNode> anchors_;
  DocNode root_;
  size_t count_ = 0;
};

// libfyaml 0.7.12 can loop forever on a malformed directive (`%YAML` or
// `%TAG` lines with garbage, found by tests/fuzz/policy_fuzz.cpp). Policy
// files need no directive, so a line starting with `%` (after a byte order
// mark) is refused before libfyaml reads the text. Line breaks are "\n",
// "\r\n" and "\r", as YAML 1.2 has them.
void refuseDirectives(std::string_view text, const std::string& name) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  int line = 1;
  size_t start = 0;
  while (start <= text.size()) {
    std::string_view rest = text.substr(start);
    int column = 1;
    if (rest.starts_with(kBom)) {
      rest.remove_prefix(kBom.size());
      ++column;
    }
    if (rest.starts_with('%')) {
      throw PolicyError(SourceLocation{name, line, column},
                        "invalid YAML: a line starting with '%' (a YAML directive such as %YAML "
                        "or %TAG): policy files take none");
    }
    const size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) break;
    start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    ++line;
  }
}

}  // namespace

DocNode parseYamlDocument(std::string_view text, const std::string& name) {
  refuseDirectives(text, name);
  // The parser reads the text in place: it must outlive the parser.
  const std::string copy(text);
  // Reports are caught, never printed: the first error becomes the PolicyError.
  FirstError first_error;
  fy_diag_cfg diag_config{};
  fy_diag_cfg_default(&diag_config);
  diag_config.fp = nullptr;
  diag_config.output_fn = keepFirstError;
  diag_config.user = &first_error;
  diag_config.colorize = false;
  diag_config.show_source = false;
  std::unique_ptr<fy_diag, DiagDeleter> diag(fy_diag_create(&diag_config));
  if (!diag) throw PolicyError(SourceLocation{name, 0, 0}, "cannot make a YAML parser");
  fy_parse_cfg config{};
  config.flags = static_cast<fy_parse_cfg_flags>(FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_2 |
                                                 FYPCF_JSON_NONE | FYPCF_ALLOW_DUPLICATE_KEYS);
  config.diag = diag.get();
  std::unique_ptr<fy_parser, ParserDeleter> parser(fy_parser_create(&config));
  if (!parser) throw PolicyError(SourceLocation{name, 0, 0}, "cannot make a YAML parser");
  if (fy_parser_set_string(parser.get(), copy.data(), copy.size()) != 0) {
    throw PolicyError(SourceLocation{name, 0, 0}, "cannot read the text as YAML");
  }
  try {
    return EventReader(parser.get(), first_error, copy, name).read();
  } catch (const NeedsYamlCpp&) {
    return parseWithYamlCpp(copy, name);
  }
}

}  // namespace toolguard::detail
