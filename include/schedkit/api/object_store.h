// ObjectLister and ObjectStore: the cluster objects a scheduler holds, of
// any kind, keyed by namespace and name (a cluster-scoped kind under
// namespace ""), as client-go's informer listers serve them to upstream's
// plugins.
//
//   const ObjectLister& objects = handle.objects();
//   std::shared_ptr<const v1::PersistentVolumeClaim> claim =
//       objects.Get<v1::PersistentVolumeClaim>("default", "data");      // null if none
//   for (const auto& va : objects.ListBy<v1::VolumeAttachment>(
//            KindTraits<v1::VolumeAttachment>::kByNode, "node-1")) ...
//
// ObjectLister is the read side plugins get: typed lookups and lists over
// type-erased virtual calls, so a test can stand one in. ObjectStore is the
// one implementation: the scheduler writes it as events arrive, and anything
// that needs a store of its own (tests, tools) may make one.
//
// Thread-safety: every method may be called from any thread, concurrently;
// each kind has its own reader-writer lock, held only inside a call. Lists
// are copies of pointers (their order is unspecified); objects are immutable.
#ifndef SCHEDKIT_API_OBJECT_STORE_H_
#define SCHEDKIT_API_OBJECT_STORE_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/message.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_set.h"

namespace schedkit::api {

class ObjectLister {
 public:
  virtual ~ObjectLister() = default;

  // ---- type-erased: one call per question, whatever the kind
  // The object of `kind` named `name` in `namespace_name` ("" for a
  // cluster-scoped kind), or null.
  virtual AnyObject GetObject(const Kind& kind, std::string_view namespace_name, std::string_view name) const = 0;
  // Every object of `kind`.
  virtual AnyObjectList ListObjects(const Kind& kind) const = 0;
  // The objects of `kind` in `namespace_name`.
  virtual AnyObjectList ListObjectsIn(const Kind& kind, std::string_view namespace_name) const = 0;
  // The objects of `kind` whose index `index` (one of kind.indexes()) has
  // `value`; empty for an index the kind does not declare.
  virtual AnyObjectList ListIndexed(const Kind& kind, std::string_view index, std::string_view value) const = 0;
  // A counter that moves whenever any held object changes, so a reader that
  // waits for someone else's write (VolumeBinding's PreBind waits for the PV
  // controller) need not poll.
  virtual uint64_t Generation() const = 0;
  // Blocks until Generation() differs from `generation` or `deadline`
  // (real time) passes, and returns the generation then; Cancelled once the
  // holder stops (a scheduler that is stopping).
  virtual absl::StatusOr<uint64_t> WaitForChange(uint64_t generation, absl::Time deadline) const = 0;

  // ---- typed, over the calls above
  template <typename T>
  std::shared_ptr<const T> Get(std::string_view namespace_name, std::string_view name) const {
    return std::static_pointer_cast<const T>(GetObject(KindOf<T>(), namespace_name, name));
  }
  // A cluster-scoped object.
  template <typename T>
  std::shared_ptr<const T> Get(std::string_view name) const {
    return Get<T>("", name);
  }
  template <typename T>
  ObjectList<T> List() const {
    return Typed<T>(ListObjects(KindOf<T>()));
  }
  template <typename T>
  ObjectList<T> List(std::string_view namespace_name) const {
    return Typed<T>(ListObjectsIn(KindOf<T>(), namespace_name));
  }
  template <typename T>
  ObjectList<T> ListBy(std::string_view index, std::string_view value) const {
    return Typed<T>(ListIndexed(KindOf<T>(), index, value));
  }

 private:
  template <typename T>
  static ObjectList<T> Typed(AnyObjectList objects) {
    ObjectList<T> out;
    out.reserve(objects.size());
    for (AnyObject& o : objects) out.push_back(std::static_pointer_cast<const T>(std::move(o)));
    return out;
  }
};

// An ObjectLister that holds no object of any kind; a test double may
// derive from it and answer the calls it needs.
class EmptyObjectLister : public ObjectLister {
 public:
  AnyObject GetObject(const Kind&, std::string_view, std::string_view) const override { return nullptr; }
  AnyObjectList ListObjects(const Kind&) const override { return {}; }
  AnyObjectList ListObjectsIn(const Kind&, std::string_view) const override { return {}; }
  AnyObjectList ListIndexed(const Kind&, std::string_view, std::string_view) const override { return {}; }
  uint64_t Generation() const override { return 0; }
  // Sleeps until `deadline`: nothing here ever changes.
  absl::StatusOr<uint64_t> WaitForChange(uint64_t generation, absl::Time deadline) const override;
};

class ObjectStore final : public ObjectLister {
 public:
  // Holds objects of `kinds` only.
  explicit ObjectStore(const KindSet& kinds);
  ~ObjectStore() override;
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  const KindSet& kinds() const { return kinds_; }
  bool Holds(const Kind& kind) const { return tables_.contains(&kind); }

  // Puts `object` (of `kind`), replacing the one of its namespace and name,
  // and returns the one replaced (null when none). InvalidArgument for a
  // kind not held or an object not of `kind`.
  absl::StatusOr<AnyObject> Upsert(const Kind& kind, AnyObject object);
  // Removes and returns the object; NotFound when none is held (the message
  // names the kind and the object), InvalidArgument for a kind not held.
  absl::StatusOr<AnyObject> Delete(const Kind& kind, std::string_view namespace_name, std::string_view name);
  template <typename T>
  absl::StatusOr<AnyObject> Upsert(std::shared_ptr<T> object) {
    return Upsert(KindOf<std::remove_const_t<T>>(), AnyObject(std::move(object)));
  }
  template <typename T>
  absl::StatusOr<AnyObject> Delete(std::string_view namespace_name, std::string_view name) {
    return Delete(KindOf<T>(), namespace_name, name);
  }

  // The generation of one kind: moves when an object of it changes.
  uint64_t KindGeneration(const Kind& kind) const;
  // Wakes every WaitForChange, now and later, with Cancelled.
  void CancelWaits();

  AnyObject GetObject(const Kind& kind, std::string_view namespace_name, std::string_view name) const override;
  AnyObjectList ListObjects(const Kind& kind) const override;
  AnyObjectList ListObjectsIn(const Kind& kind, std::string_view namespace_name) const override;
  AnyObjectList ListIndexed(const Kind& kind, std::string_view index, std::string_view value) const override;
  uint64_t Generation() const override;
  absl::StatusOr<uint64_t> WaitForChange(uint64_t generation, absl::Time deadline) const override;

 private:
  struct Table;
  struct Waits;
  const Table* Find(const Kind& kind) const;
  void Changed();

  KindSet kinds_;
  // Made at construction and never changed, so finding a kind's table takes no lock.
  absl::flat_hash_map<const Kind*, std::unique_ptr<Table>> tables_;
  std::unique_ptr<Waits> waits_;
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_OBJECT_STORE_H_
