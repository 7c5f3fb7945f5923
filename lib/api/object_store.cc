#include "schedkit/api/object_store.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace {

absl::string_view View(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// One kind's objects by namespace then name. Heterogeneous lookup by
// absl::string_view keeps reads free of string copies.
using ByName = absl::flat_hash_map<std::string, AnyObject>;
using ByNamespace = absl::flat_hash_map<std::string, ByName>;

std::string IndexKey(const v1::ObjectMeta& meta) { return schedkit::StrCat(meta.namespace_(), "/", meta.name()); }

}  // namespace

struct ObjectStore::Table {
  explicit Table(const Kind& k) : kind(&k), indexed(k.indexes().size()) {}

  const Kind* kind;
  // Guards the three members below. A std::shared_mutex, not absl::Mutex:
  // ThreadSanitizer sees pthread's locks, while Debian's Abseil is built
  // without it, so an absl::Mutex would hide this store's ordering from the
  // race detector and flood it with false reports.
  mutable std::shared_mutex mu;
  ByNamespace objects;
  // Per declared index: value → "namespace/name" → object.
  std::vector<absl::flat_hash_map<std::string, ByName>> indexed;
  uint64_t generation = 0;

  // Called with mu held exclusively.
  void Index(const AnyObject& object, bool add) {
    const std::vector<Kind::Index>& indexes = kind->indexes();
    for (size_t i = 0; i < indexes.size(); ++i) {
      const std::string_view value = indexes[i].value(*object);
      if (value.empty()) continue;
      if (add) {
        indexed[i][View(value)][IndexKey(kind->Meta(*object))] = object;
        continue;
      }
      auto it = indexed[i].find(View(value));
      if (it == indexed[i].end()) continue;
      it->second.erase(IndexKey(kind->Meta(*object)));
      if (it->second.empty()) indexed[i].erase(it);
    }
  }
};

struct ObjectStore::Waits {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t generation = 0;
  bool cancelled = false;
};

absl::StatusOr<uint64_t> EmptyObjectLister::WaitForChange(uint64_t generation, absl::Time deadline) const {
  const absl::Duration left = deadline - absl::Now();
  if (left > absl::ZeroDuration()) absl::SleepFor(left);
  return generation;
}

ObjectStore::ObjectStore(const KindSet& kinds) : kinds_(kinds), waits_(std::make_unique<Waits>()) {
  for (const Kind* k : kinds_) tables_.emplace(k, std::make_unique<Table>(*k));
}

ObjectStore::~ObjectStore() = default;

const ObjectStore::Table* ObjectStore::Find(const Kind& kind) const {
  auto it = tables_.find(&kind);
  return it == tables_.end() ? nullptr : it->second.get();
}

absl::StatusOr<AnyObject> ObjectStore::Upsert(const Kind& kind, AnyObject object) {
  Table* table = const_cast<Table*>(Find(kind));
  if (table == nullptr) {
    return absl::InvalidArgumentError(schedkit::StrCat("the object store does not hold kind ", kind.kind(), " (",
                                                       kind.api_version(), ")"));
  }
  if (object == nullptr || !kind.Holds(*object)) {
    return absl::InvalidArgumentError(schedkit::StrCat("not a ", kind.kind(), " object"));
  }
  const v1::ObjectMeta& meta = kind.Meta(*object);
  AnyObject old;
  {
    std::unique_lock lock(table->mu);
    AnyObject& slot = table->objects[View(meta.namespace_())][View(meta.name())];
    old = std::move(slot);
    if (old != nullptr) table->Index(old, /*add=*/false);
    slot = object;
    table->Index(object, /*add=*/true);
    ++table->generation;
  }
  Changed();
  return old;
}

absl::StatusOr<AnyObject> ObjectStore::Delete(const Kind& kind, std::string_view namespace_name,
                                              std::string_view name) {
  Table* table = const_cast<Table*>(Find(kind));
  if (table == nullptr) {
    return absl::InvalidArgumentError(schedkit::StrCat("the object store does not hold kind ", kind.kind(), " (",
                                                       kind.api_version(), ")"));
  }
  AnyObject old;
  {
    std::unique_lock lock(table->mu);
    auto ns = table->objects.find(View(namespace_name));
    if (ns != table->objects.end()) {
      auto it = ns->second.find(View(name));
      if (it != ns->second.end()) {
        old = std::move(it->second);
        ns->second.erase(it);
        if (ns->second.empty()) table->objects.erase(ns);
        table->Index(old, /*add=*/false);
        ++table->generation;
      }
    }
  }
  if (old == nullptr) {
    return absl::NotFoundError(schedkit::StrCat(kind.kind(), " ", namespace_name, namespace_name.empty() ? "" : "/",
                                                name, " not found"));
  }
  Changed();
  return old;
}

AnyObject ObjectStore::GetObject(const Kind& kind, std::string_view namespace_name, std::string_view name) const {
  const Table* table = Find(kind);
  if (table == nullptr) return nullptr;
  std::shared_lock lock(table->mu);
  auto ns = table->objects.find(View(namespace_name));
  if (ns == table->objects.end()) return nullptr;
  auto it = ns->second.find(View(name));
  return it == ns->second.end() ? nullptr : it->second;
}

AnyObjectList ObjectStore::ListObjects(const Kind& kind) const {
  AnyObjectList out;
  const Table* table = Find(kind);
  if (table == nullptr) return out;
  std::shared_lock lock(table->mu);
  for (const auto& [ns, objects] : table->objects) {
    for (const auto& [name, object] : objects) out.push_back(object);
  }
  return out;
}

AnyObjectList ObjectStore::ListObjectsIn(const Kind& kind, std::string_view namespace_name) const {
  AnyObjectList out;
  const Table* table = Find(kind);
  if (table == nullptr) return out;
  std::shared_lock lock(table->mu);
  auto ns = table->objects.find(View(namespace_name));
  if (ns == table->objects.end()) return out;
  out.reserve(ns->second.size());
  for (const auto& [name, object] : ns->second) out.push_back(object);
  return out;
}

AnyObjectList ObjectStore::ListIndexed(const Kind& kind, std::string_view index, std::string_view value) const {
  AnyObjectList out;
  const Table* table = Find(kind);
  if (table == nullptr) return out;
  const std::vector<Kind::Index>& indexes = kind.indexes();
  auto declared = std::find_if(indexes.begin(), indexes.end(), [&](const Kind::Index& i) { return i.name == index; });
  if (declared == indexes.end()) return out;
  std::shared_lock lock(table->mu);
  const auto& by_value = table->indexed[declared - indexes.begin()];
  auto it = by_value.find(View(value));
  if (it == by_value.end()) return out;
  out.reserve(it->second.size());
  for (const auto& [key, object] : it->second) out.push_back(object);
  return out;
}

uint64_t ObjectStore::KindGeneration(const Kind& kind) const {
  const Table* table = Find(kind);
  if (table == nullptr) return 0;
  std::shared_lock lock(table->mu);
  return table->generation;
}

uint64_t ObjectStore::Generation() const {
  std::lock_guard<std::mutex> lock(waits_->mu);
  return waits_->generation;
}

absl::StatusOr<uint64_t> ObjectStore::WaitForChange(uint64_t generation, absl::Time deadline) const {
  std::unique_lock<std::mutex> lock(waits_->mu);
  // Real time, as upstream's poll: a simulated clock would never reach the deadline.
  waits_->cv.wait_until(lock, absl::ToChronoTime(deadline),
                        [&] { return waits_->generation != generation || waits_->cancelled; });
  if (waits_->cancelled) return absl::CancelledError("the object store's holder is stopping");
  return waits_->generation;
}

void ObjectStore::CancelWaits() {
  {
    std::lock_guard<std::mutex> lock(waits_->mu);
    waits_->cancelled = true;
  }
  waits_->cv.notify_all();
}

void ObjectStore::Changed() {
  {
    std::lock_guard<std::mutex> lock(waits_->mu);
    ++waits_->generation;
  }
  waits_->cv.notify_all();
}

}  // namespace schedkit::api
