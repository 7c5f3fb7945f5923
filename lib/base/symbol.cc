#include "schedkit/base/symbol.h"

#include <array>
#include <atomic>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"

namespace schedkit {
namespace {

struct Entry {
  std::string text;
  std::optional<int64_t> as_int;
};

// Entries live in fixed-size chunks that never move, so str() can hand out
// views without holding the lock while Intern appends to later chunks.
constexpr uint32_t kChunkBits = 16;
constexpr uint32_t kChunkSize = 1u << kChunkBits;
constexpr uint32_t kMaxChunks = 4096;

// Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits, no spaces.
std::optional<int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  uint64_t magnitude = 0;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

class SymbolTable {
 public:
  SymbolTable() { Append(""); }

  uint32_t Intern(std::string_view text) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = index_.find(text); it != index_.end()) return it->second;
    return Append(text);
  }

  std::optional<uint32_t> Find(std::string_view text) {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = index_.find(text); it != index_.end()) return it->second;
    return std::nullopt;
  }

  const Entry& Get(uint32_t id) const {
    return chunks_[id >> kChunkBits].load(std::memory_order_acquire)[id & (kChunkSize - 1)];
  }

 private:
  uint32_t Append(std::string_view text) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const uint32_t id = size_;
    const uint32_t chunk = id >> kChunkBits;
    if (chunk >= kMaxChunks) std::abort();  // 268M distinct strings: out of memory anyway
    Entry* entries = chunks_[chunk].load(std::memory_order_relaxed);
    if (entries == nullptr) {
      entries = new Entry[kChunkSize];
      chunks_[chunk].store(entries, std::memory_order_release);
    }
    Entry& e = entries[id & (kChunkSize - 1)];
    e.text.assign(text);
    e.as_int = ParseInt64(text);
    index_.emplace(std::string_view(e.text), id);
    ++size_;
    return id;
  }

  std::mutex mu_;
  absl::flat_hash_map<std::string_view, uint32_t> index_ ABSL_GUARDED_BY(mu_);
  uint32_t size_ ABSL_GUARDED_BY(mu_) = 0;
  std::array<std::atomic<Entry*>, kMaxChunks> chunks_{};
};

SymbolTable& Table() {
  static SymbolTable* table = new SymbolTable();  // never destroyed: symbols outlive statics
  return *table;
}

}  // namespace

Symbol Symbol::Intern(std::string_view text) {
  if (text.empty()) return Symbol();
  return Symbol(Table().Intern(text));
}

std::optional<Symbol> Symbol::Find(std::string_view text) {
  if (text.empty()) return Symbol();
  if (auto id = Table().Find(text)) return Symbol(*id);
  return std::nullopt;
}

std::string_view Symbol::str() const { return Table().Get(id_).text; }

std::optional<int64_t> Symbol::AsInt() const { return Table().Get(id_).as_int; }

}  // namespace schedkit
