// ObjectSet: cluster objects of any kinds, each kind's in the order added.
// What decoding returns (decode.h), what StaticClusterLister lists and what
// hosts and tools hand around; the kinds are open (kind.h).
//
//   ObjectSet objects;
//   objects.Add(node);                                  // an api::v1::Node
//   for (const v1::Node& n : objects.Of<v1::Node>()) ...
//   std::shared_ptr<const v1::Pod> p = objects.Of<v1::Pod>().shared(0);
//
// Objects are shared and const once added; Mutable and MutableAll give an
// object to edit, copying it first unless this set alone holds it, so an
// object shared with another set or a scheduler never changes. A value,
// cheap to copy (it copies pointers); not synchronized.
#ifndef SCHEDKIT_API_OBJECT_SET_H_
#define SCHEDKIT_API_OBJECT_SET_H_

#include <cstddef>
#include <iterator>
#include <algorithm>
#include <memory>
#include <utility>
#include <type_traits>
#include <vector>

#include "google/protobuf/message.h"
#include "schedkit/api/kind.h"

namespace schedkit::api {

template <typename T>
using ObjectList = std::vector<std::shared_ptr<const T>>;

using AnyObject = std::shared_ptr<const google::protobuf::Message>;
using AnyObjectList = std::vector<AnyObject>;

// A typed, read-only view of one kind's objects in an ObjectSet (or any
// AnyObjectList of that kind); valid while the list is not changed.
template <typename T>
class ObjectsOf {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    iterator() = default;
    explicit iterator(AnyObjectList::const_iterator it) : it_(it) {}
    const T& operator*() const { return static_cast<const T&>(**it_); }
    const T* operator->() const { return static_cast<const T*>(it_->get()); }
    iterator& operator++() {
      ++it_;
      return *this;
    }
    iterator operator++(int) { return iterator(it_++); }
    friend bool operator==(const iterator& a, const iterator& b) { return a.it_ == b.it_; }

   private:
    AnyObjectList::const_iterator it_;
  };

  explicit ObjectsOf(const AnyObjectList* items) : items_(items) {}
  size_t size() const { return items_->size(); }
  bool empty() const { return items_->empty(); }
  const T& operator[](size_t i) const { return static_cast<const T&>(*(*items_)[i]); }
  std::shared_ptr<const T> shared(size_t i) const { return std::static_pointer_cast<const T>((*items_)[i]); }
  iterator begin() const { return iterator(items_->begin()); }
  iterator end() const { return iterator(items_->end()); }
  // The objects as shared pointers, a copy.
  ObjectList<T> Shared() const {
    ObjectList<T> out;
    out.reserve(items_->size());
    for (const AnyObject& o : *items_) out.push_back(std::static_pointer_cast<const T>(o));
    return out;
  }

 private:
  const AnyObjectList* items_;
};

class ObjectSet {
 public:
  // Appends `object`, which must be of `kind` (Kind::Holds).
  void Add(const Kind& kind, AnyObject object);
  template <typename T>
  void Add(std::shared_ptr<T> object) {
    Add(KindOf<std::remove_const_t<T>>(), AnyObject(std::move(object)));
  }
  template <typename T>
  void Add(T object) {
    Add(KindOf<T>(), AnyObject(std::make_shared<const T>(std::move(object))));
  }
  // The kind's i-th object, to edit in place (see above). The reference
  // stays valid until the object is removed or the set is destroyed.
  template <typename T>
  T& Mutable(size_t i) {
    return static_cast<T&>(MutableObject(KindOf<T>(), i, [](const google::protobuf::Message& m) {
      return std::shared_ptr<google::protobuf::Message>(std::make_shared<T>(static_cast<const T&>(m)));
    }));
  }
  // Every object of the kind, to edit in place, in order.
  template <typename T>
  std::vector<T*> MutableAll() {
    std::vector<T*> out;
    const size_t n = List(KindOf<T>()).size();
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) out.push_back(&Mutable<T>(i));
    return out;
  }
  // Removes the kind's objects for which `drop` returns true, keeping order.
  template <typename T, typename Pred>
  void RemoveIf(Pred drop) {
    AnyObjectList& list = MutableList(KindOf<T>());
    std::erase_if(list, [&](const AnyObject& o) { return drop(static_cast<const T&>(*o)); });
    ForgetOwnCopies(KindOf<T>());
  }
  // Appends every object of `other`.
  void Append(const ObjectSet& other);

  template <typename T>
  ObjectsOf<T> Of() const {
    return ObjectsOf<T>(&List(KindOf<T>()));
  }
  // The kind's objects in the order added (empty when none).
  const AnyObjectList& List(const Kind& kind) const;
  // The kinds that have objects, in the order their first object came.
  const std::vector<const Kind*>& kinds() const { return order_; }
  size_t size() const;
  bool empty() const { return size() == 0; }

 private:
  using Copier = std::shared_ptr<google::protobuf::Message> (*)(const google::protobuf::Message&);
  AnyObjectList& MutableList(const Kind& kind);
  google::protobuf::Message& MutableObject(const Kind& kind, size_t i, Copier copy);
  // After a removal: the next Mutable copies again, the safe answer.
  void ForgetOwnCopies(const Kind& kind);

  std::vector<const Kind*> order_;
  std::vector<AnyObjectList> lists_;  // parallel to order_
  // Parallel to lists_: the objects this set made by copying for Mutable,
  // which it may edit while it alone holds them.
  std::vector<std::vector<bool>> own_copies_;
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_OBJECT_SET_H_
