// The audit's hash chain: hashing a record's bytes and walking a chain to
// find where it breaks.
#include "toolguard/audit_chain.hpp"

#include <cstring>
#include <nlohmann/json.hpp>

#include "core/sha256_hex.hpp"
#include "toolguard/rule.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

// The record, or a discarded value when it is not JSON (or nested deeper
// than any record toolguard writes).
json parseChained(std::string_view bytes) {
  constexpr int kMaxDepth = static_cast<int>(kMaxArgumentDepth) + 8;
  bool too_deep = false;
  json value = json::parse(
      bytes.begin(), bytes.end(),
      [&too_deep](int depth, json::parse_event_t, json&) {
        if (depth > kMaxDepth) too_deep = true;
        return !too_deep;
      },
      false);
  if (too_deep || !value.is_object()) return json(json::value_t::discarded);
  return value;
}

unsigned long long prefixOf(const std::string& hash) {
  return hash.size() >= 16 ? std::stoull(hash.substr(0, 16), nullptr, 16) : 0;
}

long long seqOf(const json& anchor) {
  auto it = anchor.find("seq");
  return it != anchor.end() && it->is_number_integer() ? it->get<long long>() : -1;
}

std::string stringField(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string auditHash(std::string_view bytes) {
  return detail::sha256Hex(bytes);
}

AuditChainVerifier::AuditChainVerifier(std::string expected_head)
    : expected_head_(std::move(expected_head)) {}

void AuditChainVerifier::issue(const std::string& where, std::string what) {
  report_.issues.push_back({where, std::move(what)});
}

void AuditChainVerifier::next(std::string_view bytes, const std::string& where) {
  ++report_.records;
  const std::string hash = auditHash(bytes);
  const json record = parseChained(bytes);
  const bool readable = !record.is_discarded();
  const std::string prev = readable ? stringField(record, "prev_hash") : "";
  const json* anchor = nullptr;
  if (readable) {
    auto it = record.find("anchor");
    if (it != record.end() && it->is_object()) anchor = &*it;
  }
  bool is_start = false;
  const size_t issues_before = report_.issues.size();
  if (!started_) {
    if (prev.empty()) {
      // Written before the chain began (an older toolguard), or not a record.
      ++report_.unchained;
    } else {
      started_ = is_start = true;
      const bool linked = prev == kAuditGenesisHash || (!last_hash_.empty() && prev == last_hash_);
      if (anchor != nullptr) {
        report_.chain = stringField(*anchor, "chain");
        last_seq_ = seqOf(*anchor);
      }
      if (!linked) missing_start_ = {where, anchor != nullptr ? seqOf(*anchor) : -1};
    }
  } else if (!readable) {
    issue(where, "not a JSON record (edited, or a write was cut short)");
  } else if (prev.empty()) {
    issue(where, "has no prev_hash: inserted by hand, or edited");
  } else if (prev != last_hash_) {
    auto earlier = seen_.find(prefixOf(prev));
    if (earlier != seen_.end() && earlier->second != last_where_) {
      issue(where, "out of order: it follows " + earlier->second + " in the chain, not " +
                       last_where_ + " (records were moved)");
    } else {
      issue(where, "prev_hash does not match " + last_where_ + ": that record was edited, or " +
                       "records between them were deleted");
    }
  }
  if (anchor != nullptr && started_ && !is_start) {
    const long long seq = seqOf(*anchor);
    const std::string chain = stringField(*anchor, "chain");
    if (report_.issues.size() > issues_before) {
      // The break is named already.
    } else if (prev == kAuditGenesisHash) {
      issue(where, "a new chain starts in the middle of the audit");
    } else if (!report_.chain.empty() && chain != report_.chain) {
      issue(where, "an anchor of another chain (" + chain + ")");
    } else if (last_seq_ >= 0 && seq != last_seq_ + 1) {
      issue(where, "the file's place in the chain jumps from " + std::to_string(last_seq_) +
                       " to " + std::to_string(seq) + ": whole files are missing");
    }
    last_seq_ = seq;
  }
  if (anchor != nullptr) {
    auto retention = anchor->find("retention");
    if (retention != anchor->end() && retention->is_object()) {
      auto through = retention->find("through_seq");
      if (through != retention->end() && through->is_number_integer() &&
          through->get<long long>() > pruned_through_seq_) {
        pruned_through_seq_ = through->get<long long>();
        pruned_where_ = where;
      }
    }
  }
  if (!expected_head_.empty() && hash == expected_head_) head_seen_ = true;
  seen_.emplace(prefixOf(hash), where);
  last_hash_ = hash;
  last_where_ = where;
}

AuditChainReport AuditChainVerifier::finish() {
  if (missing_start_) {
    const auto& [where, seq] = *missing_start_;
    if (seq >= 0 && seq <= pruned_through_seq_ + 1 && pruned_through_seq_ >= 0) {
      report_.notes.push_back("the records before " + where +
                              " were deleted by the retention setting (recorded at " +
                              pruned_where_ + ")");
    } else {
      report_.issues.insert(report_.issues.begin(),
                            {where,
                             "the chain's start is missing: this record follows one that "
                             "is not there (a whole file or the first records deleted)"});
    }
  }
  if (report_.unchained > 0) {
    report_.notes.push_back(std::to_string(report_.unchained) +
                            " record(s) before the chain began (not chained: written by an older "
                            "toolguard, or not records)");
  }
  if (!expected_head_.empty() && !head_seen_) {
    report_.issues.push_back({"head", "the head " + expected_head_ +
                                          " noted earlier is not in the chain: records were "
                                          "removed from the end, or the chain was rewritten"});
  }
  report_.head = last_hash_;
  return std::move(report_);
}

}  // namespace toolguard
