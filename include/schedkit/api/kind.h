// Kinds: what schedkit knows of each Kubernetes kind it holds, declared once
// per kind as a KindTraits specialization beside the kind's message, and read
// everywhere else through the kind's one descriptor, KindOf<T>(): the decoder,
// the object store, the scheduler's events, the listers and the informers.
//
//   // schedkit/api/v1/csi_node.h
//   template <>
//   struct KindTraits<v1::CSINode> {
//     static constexpr KindName kName = {.group = "storage.k8s.io", .version = "v1", .kind = "CSINode",
//                                        .resource = "csinodes", .namespaced = false};
//     static absl::Status Validate(const v1::CSINode& node);  // optional
//   };
//
//   const Kind& kind = KindOf<v1::CSINode>();   // kind.api_version() == "storage.k8s.io/v1"
//
// Adding a kind is a recipe (schedkit/api/README.md): its message (a proto
// file of its own whose top-level message carries `ObjectMeta metadata`), a
// traits specialization in a header named as the proto, and the plugin code
// that reads it. A kind of schedkit's own also joins BuiltinKinds(); an
// out-of-tree plugin's kind joins its Registry instead (Registry::AddKind).
//
// What a specialization may declare (all but kName are optional):
//   kName                 group, version, kind, REST resource, namespaced.
//   kSchedulerReads       false for a kind kube-scheduler neither holds nor
//                         watches (PriorityClass: files carry it for the
//                         simulator's admission). Default true.
//   kEventResource        the resource name of the kind's cluster events, as
//                         upstream spells it. Default: "<group>/<Kind>", or
//                         "<Kind>" in the core group.
//   kIndexes              secondary indexes the store keeps for the kind's
//                         readers: {name, function of the object}.
//   Validate(const T&)    the API server's checks that matter to scheduling;
//                         an error reads "<field.path>: <problem>".
//   ApplyDefaults(T&)     what the API server fills in on create, beyond the
//                         namespace "default" every namespaced kind gets.
//
// Thread-safety: a Kind is immutable; KindOf<T>() is safe from any thread.
#ifndef SCHEDKIT_API_KIND_H_
#define SCHEDKIT_API_KIND_H_

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "schedkit/api/v1/meta.pb.h"

namespace schedkit::api {

// A kind's identity and REST shape.
struct KindName {
  std::string_view group;     // "" for the core group
  std::string_view version;   // "v1"
  std::string_view kind;      // "PersistentVolume"
  std::string_view resource;  // "persistentvolumes": the REST path segment
  bool namespaced = true;
};

// A secondary index the object store keeps for a kind: its objects by one
// value computed from each (e.g. a VolumeAttachment's spec.nodeName). The
// function returns a view into the object; "" leaves the object out.
template <typename T>
struct IndexSpec {
  std::string_view name;
  std::string_view (*value)(const T& object);
};

// The primary template is left undefined: a kind is a specialization.
template <typename T>
struct KindTraits;

// One kind, type-erased: what code that handles every kind alike reads
// (decoding, storing, listing, watching). Built once per kind by KindOf<T>().
class Kind {
 public:
  struct Index {
    std::string_view name;
    std::function<std::string_view(const google::protobuf::Message&)> value;
  };

  const KindName& name() const { return name_; }
  std::string_view group() const { return name_.group; }
  std::string_view version() const { return name_.version; }
  std::string_view kind() const { return name_.kind; }
  std::string_view resource() const { return name_.resource; }
  bool namespaced() const { return name_.namespaced; }
  // "v1", or "<group>/<version>": what objects of the kind carry as apiVersion.
  const std::string& api_version() const { return api_version_; }
  // The path an API server serves the kind's collection at, across all
  // namespaces: "/api/v1/pods", "/apis/storage.k8s.io/v1/csinodes".
  const std::string& collection_path() const { return collection_path_; }
  // The path of one object: "/api/v1/namespaces/default/pods/web-1",
  // "/apis/storage.k8s.io/v1/csinodes/node-1" (a cluster-scoped kind
  // ignores `namespace_name`).
  std::string ObjectPath(std::string_view namespace_name, std::string_view name) const;
  // The resource name of the kind's cluster events (see kEventResource).
  const std::string& event_resource() const { return event_resource_; }
  bool scheduler_reads() const { return scheduler_reads_; }
  const std::vector<Index>& indexes() const { return indexes_; }

  // An empty object of the kind, to decode into.
  std::unique_ptr<google::protobuf::Message> New() const { return std::unique_ptr<google::protobuf::Message>(prototype_->New()); }
  // Whether `object` is of this kind's message type.
  bool Holds(const google::protobuf::Message& object) const {
    return object.GetDescriptor() == prototype_->GetDescriptor();
  }
  // The object's metadata. `object` must be of this kind (Holds).
  const v1::ObjectMeta& Meta(const google::protobuf::Message& object) const { return meta_(object); }
  // The API server's defaults: namespace "default" for a namespaced kind,
  // then the traits' ApplyDefaults.
  void ApplyDefaults(google::protobuf::Message& object) const;
  // The traits' Validate; OK when the kind declares none.
  absl::Status Validate(const google::protobuf::Message& object) const {
    return validate_ != nullptr ? validate_(object) : absl::OkStatus();
  }

  // Built from KindTraits<T>; call KindOf<T>() rather than this.
  template <typename T>
  static Kind Make();

  Kind(const Kind&) = delete;
  Kind& operator=(const Kind&) = delete;
  Kind(Kind&&) = default;

 private:
  Kind() = default;
  void Finish();

  KindName name_;
  std::string api_version_;
  std::string collection_path_;
  std::string event_resource_;
  bool scheduler_reads_ = true;
  std::vector<Index> indexes_;
  const google::protobuf::Message* prototype_ = nullptr;
  const v1::ObjectMeta& (*meta_)(const google::protobuf::Message&) = nullptr;
  v1::ObjectMeta* (*mutable_meta_)(google::protobuf::Message&) = nullptr;
  void (*apply_defaults_)(google::protobuf::Message&) = nullptr;
  absl::Status (*validate_)(const google::protobuf::Message&) = nullptr;
};

// The descriptor of kind T, made on first use and kept for the process.
template <typename T>
const Kind& KindOf() {
  static const Kind kind = Kind::Make<T>();
  return kind;
}

// An ordered set of kinds: what a decoder reads, a store holds, a scheduler
// watches. Adding a kind twice keeps the first place. A value; not
// synchronized.
class KindSet {
 public:
  KindSet() = default;
  KindSet(std::initializer_list<const Kind*> kinds);

  void Add(const Kind& kind);
  template <typename T>
  void Add() {
    Add(KindOf<T>());
  }
  // Every kind of `other` not yet here, in its order.
  void Merge(const KindSet& other);
  bool Contains(const Kind& kind) const;
  // The kind an object of `kind` (its "kind" field) and `api_version` (its
  // "apiVersion", may be empty) belongs to: the one of that kind name whose
  // group the apiVersion names, or the only one of that name; null if none.
  const Kind* Find(std::string_view kind, std::string_view api_version = "") const;

  std::span<const Kind* const> kinds() const { return kinds_; }
  auto begin() const { return kinds_.begin(); }
  auto end() const { return kinds_.end(); }
  size_t size() const { return kinds_.size(); }

 private:
  std::vector<const Kind*> kinds_;
};

// ---- implementation

template <typename T>
Kind Kind::Make() {
  using Traits = KindTraits<T>;
  Kind k;
  k.name_ = Traits::kName;
  if constexpr (requires { Traits::kSchedulerReads; }) k.scheduler_reads_ = Traits::kSchedulerReads;
  if constexpr (requires { Traits::kEventResource; }) k.event_resource_ = std::string(Traits::kEventResource);
  if constexpr (requires { Traits::kIndexes; }) {
    for (const IndexSpec<T>& spec : Traits::kIndexes) {
      auto value = spec.value;
      k.indexes_.push_back(
          {spec.name, [value](const google::protobuf::Message& m) { return value(static_cast<const T&>(m)); }});
    }
  }
  k.prototype_ = &T::default_instance();
  k.meta_ = [](const google::protobuf::Message& m) -> const v1::ObjectMeta& {
    return static_cast<const T&>(m).metadata();
  };
  k.mutable_meta_ = [](google::protobuf::Message& m) { return static_cast<T&>(m).mutable_metadata(); };
  if constexpr (requires(T& t) { Traits::ApplyDefaults(t); }) {
    k.apply_defaults_ = [](google::protobuf::Message& m) { Traits::ApplyDefaults(static_cast<T&>(m)); };
  }
  if constexpr (requires(const T& t) { Traits::Validate(t); }) {
    k.validate_ = [](const google::protobuf::Message& m) { return Traits::Validate(static_cast<const T&>(m)); };
  }
  k.Finish();
  return k;
}

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_KIND_H_
