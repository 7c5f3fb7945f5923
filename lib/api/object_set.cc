#include "schedkit/api/object_set.h"

#include <algorithm>
#include <cassert>

namespace schedkit::api {

void ObjectSet::Add(const Kind& kind, AnyObject object) {
  assert(object != nullptr && kind.Holds(*object));
  MutableList(kind).push_back(std::move(object));
}

google::protobuf::Message& ObjectSet::MutableObject(const Kind& kind, size_t i, Copier copy) {
  AnyObjectList& list = MutableList(kind);
  std::vector<bool>& own = own_copies_[std::find(order_.begin(), order_.end(), &kind) - order_.begin()];
  own.resize(list.size(), false);
  AnyObject& slot = list.at(i);
  if (!own[i] || slot.use_count() != 1) {
    // A copy of our own: made non-const, so editing it is sound.
    slot = copy(*slot);
    own[i] = true;
  }
  return const_cast<google::protobuf::Message&>(*slot);
}

void ObjectSet::Append(const ObjectSet& other) {
  for (size_t i = 0; i < other.order_.size(); ++i) {
    AnyObjectList& list = MutableList(*other.order_[i]);
    list.insert(list.end(), other.lists_[i].begin(), other.lists_[i].end());
  }
}

const AnyObjectList& ObjectSet::List(const Kind& kind) const {
  static const AnyObjectList kNone;
  auto it = std::find(order_.begin(), order_.end(), &kind);
  return it == order_.end() ? kNone : lists_[it - order_.begin()];
}

AnyObjectList& ObjectSet::MutableList(const Kind& kind) {
  auto it = std::find(order_.begin(), order_.end(), &kind);
  if (it != order_.end()) return lists_[it - order_.begin()];
  order_.push_back(&kind);
  own_copies_.emplace_back();
  return lists_.emplace_back();
}

void ObjectSet::ForgetOwnCopies(const Kind& kind) {
  auto it = std::find(order_.begin(), order_.end(), &kind);
  if (it != order_.end()) own_copies_[it - order_.begin()].clear();
}

size_t ObjectSet::size() const {
  size_t n = 0;
  for (const AnyObjectList& l : lists_) n += l.size();
  return n;
}

}  // namespace schedkit::api
