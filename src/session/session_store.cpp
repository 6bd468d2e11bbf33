// Sessions kept in files (toolguard/session_state.hpp). A session's file is
// a header line naming its key (and how many event lines its last rewrite
// wrote), then one JSON line per event, appended under the file's lock in
// one write (only the first and last lines are read to append). When a
// quarter of `max_events` lines were appended since the last rewrite, or its
// latest event expired, it is rewritten whole (atomically), calls without a
// label in a row sharing a run line. A file that is not what the store
// writes makes the session unknown: it is taken to have seen everything
// until it expires.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "approval/store_file_io.hpp"
#include "approval/store_layout.hpp"
#include "core/file_descriptor.hpp"
#include "session/session_json.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::system_clock;

// Files of expired sessions removed when a new session's file is made.
constexpr size_t kMaxSweptFiles = 64;
// Sessions share this many lock files (a lock file is never removed, so
// there cannot be one per session).
constexpr uint64_t kLockStripes = 64;

// The lock of the session file `path`: one of the stripes, by its name.
std::string lockOf(const fs::path& dir, const std::string& path) {
  return (dir / "locks" / std::to_string(detail::fnv1a64(path) % kLockStripes)).string();
}

// A session file as read: its events (the calls older than the kept ones
// only when they brought a label; see parseSessionFile), and whether it is
// ours and whole.
struct ReadFile {
  bool exists = false;
  SessionState state;
  size_t event_lines = 0;                   // every event line read, kept or not
  std::optional<size_t> written;            // the event lines its last rewrite wrote
  std::optional<Clock::time_point> latest;  // the latest moment of all of them
};

// How many lines a session's file may hold before an append rewrites it:
// its header, the event lines its last rewrite wrote (the file of an older
// toolguard says nothing: `max_events`), and a quarter of `max_events` more.
// Run lines keep a rewritten file short, so most loads read few lines.
size_t maxLines(std::optional<size_t> written, size_t max_events) {
  return 1 + std::min(written.value_or(max_events), max_events) + (max_events + 3) / 4;
}

// The event lines a header says the last rewrite wrote, when it says so.
std::optional<size_t> writtenLines(const nlohmann::json& header) {
  const auto lines = header.find("lines");
  if (lines == header.end() || !lines->is_number_unsigned()) return std::nullopt;
  return lines->get<size_t>();
}

// How many lines end in `bytes` (memchr reads many bytes at a time).
size_t lineCount(std::string_view bytes) {
  size_t lines = 0;
  for (const char* at = bytes.data();
       const void* found = std::memchr(at, '\n', bytes.data() + bytes.size() - at);
       at = static_cast<const char*>(found) + 1) {
    ++lines;
  }
  return lines;
}

// What forgetOldest(keep) leaves of `events` with each run expanded
// (calls[i]: how many calls events[i] stands for), built without expanding
// what it forgets: the newest `keep` calls (a run cut to its part among
// them), after the older events that bring a label neither those nor a
// newer one of the older carries, oldest first. A file that claims
// millions of calls costs a load no more than `keep` events, and the
// events kept are written once, in place (expanding every run and then
// forgetting was half of a hook's session load).
void keepNewest(std::vector<SessionEvent>& events, const std::vector<size_t>& calls, size_t keep) {
  const size_t n = events.size();
  if (n <= keep && std::all_of(calls.begin(), calls.end(), [](size_t c) { return c == 1; })) {
    return;  // nothing to forget, nothing to expand
  }
  std::vector<size_t> taken(n, 0);  // of each event's calls, how many are kept
  size_t room = keep;
  size_t first_kept = n;
  for (size_t i = n; i-- > 0 && room > 0;) {
    taken[i] = std::min(calls[i], room);
    room -= taken[i];
    first_kept = i;
  }
  std::vector<std::string_view> held;  // the labels of what is kept so far
  auto holds = [&](const std::string& label) {
    return std::find(held.begin(), held.end(), label) != held.end();
  };
  for (size_t i = first_kept; i < n; ++i) {
    for (const std::string& label : events[i].labels) {
      if (!holds(label)) held.push_back(label);
    }
  }
  std::vector<size_t> carried;  // newest first
  for (size_t i = first_kept; i-- > 0;) {
    const std::vector<std::string>& labels = events[i].labels;
    if (std::all_of(labels.begin(), labels.end(), holds)) continue;
    for (const std::string& label : labels) {
      if (!holds(label)) held.push_back(label);
    }
    carried.push_back(i);
  }
  size_t total = carried.size();
  for (size_t i = first_kept; i < n; ++i) total += taken[i];
  std::vector<SessionEvent> out;
  out.reserve(total);
  for (auto it = carried.rbegin(); it != carried.rend(); ++it) {
    out.push_back(std::move(events[*it]));
  }
  for (size_t i = first_kept; i < n; ++i) {
    // A run's calls (only a run stands for more than one) have a time and a
    // tool and nothing else: made so, not copied, as a third of the cost.
    for (size_t k = 1; k < taken[i]; ++k) {
      SessionEvent& call = out.emplace_back();
      call.at = events[i].at;
      call.tool = events[i].tool;
    }
    out.push_back(std::move(events[i]));
  }
  events = std::move(out);
}

// Reads a session file into what forgetOldest(keep) leaves of it. Of the
// events before the last `keep` lines, those that brought no label are
// checked and counted but not kept (forgetOldest forgets them anyway, and
// keeps only older events that carry a label; most of a long session's
// lines are calls that brought none).
ReadFile parseSessionFile(const std::string& bytes, const std::string& key, size_t keep) {
  ReadFile read;
  read.exists = true;
  const size_t lines = lineCount(bytes);
  const size_t event_lines = lines > 0 ? lines - 1 : 0;
  const size_t older = event_lines > keep ? event_lines - keep : 0;
  read.state.events.reserve(event_lines - older);
  size_t start = 0;
  bool header = true;
  SessionEvent scratch;       // an older line, read to be checked
  std::vector<size_t> calls;  // how many calls each kept event stands for (a run: more than one)
  while (start < bytes.size()) {
    const size_t end = bytes.find('\n', start);
    if (end == std::string::npos) {  // torn by a crash, or not ours
      read.state.unknown = true;
      break;
    }
    const std::string_view text = std::string_view(bytes).substr(start, end - start);
    start = end + 1;
    if (header) {
      const nlohmann::json line = nlohmann::json::parse(text, nullptr, false);
      header = false;
      const auto session = line.is_object() ? line.find("session") : line.end();
      if (session == line.end() || *session != key) {
        read.state.unknown = true;
        break;
      }
      if (line.value("unknown", false)) read.state.unknown = true;
      read.written = writtenLines(line);
      continue;
    }
    const bool is_older = read.event_lines < older;
    SessionEvent& event = is_older ? scratch : read.state.events.emplace_back();
    if (is_older) scratch = SessionEvent{};
    size_t line_calls = 1;
    if (!detail::readSessionLine(text, event, line_calls)) {
      if (!is_older) read.state.events.pop_back();
      read.state.unknown = true;
      break;
    }
    ++read.event_lines;
    read.latest = read.latest ? std::max(*read.latest, event.at) : event.at;
    if (!is_older) {
      calls.push_back(line_calls);
    } else if (!scratch.labels.empty()) {  // a run carries no label: this is one call
      read.state.events.push_back(std::move(scratch));
      calls.push_back(1);
    }
  }
  keepNewest(read.state.events, calls, keep);
  if (header && read.exists) read.state.unknown = true;  // not even a header
  return read;
}

// Whether a new event can simply be appended to a file: its header names
// this session and says nothing unknown, its last line is whole, it has room
// for one more line, and its latest event has not expired. Reads only the
// first and last lines.
bool appendable(const std::string& bytes, const std::string& key, size_t max_events,
                std::chrono::seconds expire_after) {
  if (bytes.empty() || bytes.back() != '\n') return false;
  const size_t header_end = bytes.find('\n');
  const nlohmann::json header =
      nlohmann::json::parse(std::string_view(bytes).substr(0, header_end), nullptr, false);
  if (!header.is_object() || header.value("session", "") != key || header.contains("unknown")) {
    return false;
  }
  if (lineCount(bytes) >= maxLines(writtenLines(header), max_events)) return false;
  if (header_end + 1 == bytes.size()) return false;  // no event to date it: rewrite
  const size_t last_start = bytes.rfind('\n', bytes.size() - 2) + 1;
  SessionEvent last;  // an event, or a run (a rewrite's last line usually is one)
  size_t calls = 1;
  return detail::readSessionLine(
             std::string_view(bytes).substr(last_start, bytes.size() - 1 - last_start), last,
             calls) &&
         Clock::now() - last.at <= expire_after;
}

// Whether the session's latest event (or, with none, its file's last
// change) is longer ago than `expire_after`.
bool expired(const ReadFile& read, Clock::time_point file_time, std::chrono::seconds expire_after) {
  return Clock::now() - read.latest.value_or(file_time) > expire_after;
}

// When a file was last changed, to the second (as modifiedTime).
Clock::time_point timeOf(const detail::FileStamp& stamp) {
  return Clock::time_point(std::chrono::seconds(stamp.modified.tv_sec));
}

Clock::time_point modifiedTime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Clock::now();
  return Clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec));
}

// Removes a few files of sessions that expired, so that the directory does
// not grow with every session ever seen.
// Called holding no lock: it takes each file's own.
void sweepExpired(const fs::path& dir, std::chrono::seconds expire_after) {
  std::error_code error;
  size_t removed = 0;
  for (auto it = fs::directory_iterator(dir, error);
       !error && it != fs::directory_iterator() && removed < kMaxSweptFiles; it.increment(error)) {
    const std::string path = it->path().string();
    if (!path.ends_with(".json")) continue;
    if (Clock::now() - modifiedTime(path) > expire_after + std::chrono::minutes(1)) {
      // Under the session's lock, so that no append is lost to the removal.
      detail::ScopeFileLock lock(lockOf(dir, path), detail::ScopeFileLock::MissingDirectory::Make);
      if (Clock::now() - modifiedTime(path) > expire_after + std::chrono::minutes(1)) {
        fs::remove(path, error);
        ++removed;
      }
    }
  }
}

void appendLine(const std::string& path, const std::string& line) {
  detail::FileDescriptor fd(::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW));
  if (fd.get() < 0) {
    throw std::runtime_error(path + ": cannot be opened: " + std::strerror(errno));
  }
  // One write: a reader sees the whole line or none of it.
  const ssize_t written = ::write(fd.get(), line.data(), line.size());
  if (written != static_cast<ssize_t>(line.size())) {
    throw std::runtime_error(path + ": cannot be written: " + std::strerror(errno));
  }
}

}  // namespace

// The file load() read last, as append() needs it: its stamp, and whether a
// line could be appended to it as it was.
struct SessionStore::LoadedFile {
  std::mutex mutex;
  std::string path;
  detail::FileStamp stamp;
  bool whole = false;  // its header names the session, nothing unknown, every line whole
  size_t lines = 0;
  size_t max_lines = 0;  // what it may hold before an append rewrites it (maxLines)
  std::optional<Clock::time_point> last_at;
};

SessionStore::SessionStore(SessionStoreOptions options)
    : options_(std::move(options)), loaded_(std::make_shared<LoadedFile>()) {
  if (options_.max_events == 0) options_.max_events = 1;
}

std::string SessionStore::keyOf(const std::string& agent, const std::string& session) {
  // The agent's length first: ("a/b", "c") and ("a", "b/c") differ.
  return std::to_string(agent.size()) + ":" + agent + "/" + session;
}

std::string SessionStore::fileOf(const std::string& key) const {
  return (options_.dir / detail::scopeFileName(key)).string();
}

SessionState SessionStore::load(const std::string& key) const {
  const std::string path = fileOf(key);
  const std::optional<detail::FileContents> contents = detail::readStoreFile(path);
  ReadFile read =
      contents ? parseSessionFile(contents->bytes, key, options_.max_events) : ReadFile{};
  if (contents) {
    const std::lock_guard<std::mutex> hold(loaded_->mutex);
    loaded_->path = path;
    loaded_->stamp = contents->stamp;
    loaded_->whole = !read.state.unknown;
    loaded_->lines = 1 + read.event_lines;
    loaded_->max_lines = maxLines(read.written, options_.max_events);
    loaded_->last_at =
        read.state.events.empty() ? std::nullopt : std::optional(read.state.events.back().at);
  }
  if (!read.exists || expired(read, timeOf(contents->stamp), options_.expire_after)) {
    return {};
  }
  return std::move(read.state);  // forgotten down to max_events as it was read
}

bool SessionStore::appendableAsLoaded(const std::string& path) const {
  const std::lock_guard<std::mutex> hold(loaded_->mutex);
  if (loaded_->path != path || !loaded_->whole || loaded_->lines >= loaded_->max_lines ||
      !loaded_->last_at || Clock::now() - *loaded_->last_at > options_.expire_after) {
    return false;
  }
  // Unchanged since it was read: appends only grow a file, a rewrite
  // replaces it (another inode).
  const std::optional<detail::FileStamp> now = detail::statStoreFile(path);
  const bool unchanged = now && *now == loaded_->stamp;
  loaded_->path.clear();  // once: the append changes the file
  return unchanged;
}

bool SessionStore::loadedHere(const std::string& path) const {
  const std::lock_guard<std::mutex> hold(loaded_->mutex);
  return loaded_->path == path;
}

void SessionStore::append(const std::string& key, const SessionEvent& event) {
  const std::string path = fileOf(key);
  // A session's first event sweeps the expired files of others. A file
  // load() read in this process was there (a sweep it misses is tidying,
  // never a decision), and the lock's directory is made only when missing.
  std::error_code error;
  if (!loadedHere(path) && !fs::exists(path, error)) {
    sweepExpired(options_.dir, options_.expire_after);
  }
  detail::ScopeFileLock lock(lockOf(options_.dir, path),
                             detail::ScopeFileLock::MissingDirectory::Make);
  const std::string line = detail::sessionEventJson(event).dump() + "\n";
  if (appendableAsLoaded(path)) {
    appendLine(path, line);
    return;
  }
  const std::optional<detail::FileContents> contents = detail::readStoreFile(path);
  if (contents && appendable(contents->bytes, key, options_.max_events, options_.expire_after)) {
    appendLine(path, line);
    return;
  }
  const size_t keep = options_.max_events - 1;  // and this one
  ReadFile read = contents ? parseSessionFile(contents->bytes, key, keep) : ReadFile{};
  const bool stale = read.exists && expired(read, modifiedTime(path), options_.expire_after);
  // A new file, or one rewritten: the header (with how many event lines
  // follow it), the events kept (runs of calls without a label on a line
  // each), this one.
  std::vector<SessionEvent> events;
  if (read.exists && !stale) {
    events = std::move(read.state.events);  // read down to `keep`: what it saw stays
  }
  events.push_back(event);
  const std::string lines = detail::sessionLinesOf(events);
  nlohmann::json header = {
      {"session", key},
      {"lines", static_cast<size_t>(std::count(lines.begin(), lines.end(), '\n'))}};
  // An unreadable file stays unknown until the session expires.
  if (read.state.unknown && read.exists && !stale) header["unknown"] = true;
  detail::replaceFileAtomically(path, header.dump() + "\n" + lines);
}

}  // namespace toolguard
