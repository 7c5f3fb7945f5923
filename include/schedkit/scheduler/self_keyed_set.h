// A hash table of values that carry their own string key (a pod's
// uid or "namespace/name"), found by that key without keeping a copy of it.
#ifndef SCHEDKIT_SCHEDULER_SELF_KEYED_SET_H_
#define SCHEDKIT_SCHEDULER_SELF_KEYED_SET_H_

#include <cstddef>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"

namespace schedkit::scheduler {

// The scheduler indexes every pod it knows by uid and by name. A table keyed
// by a copied std::string pays the key's slot and, for keys longer than the
// string's inline buffer (every uid), a heap block per pod and table. Here
// the slot holds the value alone and the key is read from it. KeyOf maps a value to its key; the key
// must not change while the value is in the set, so a value found by Find may
// be changed or replaced only by one with the same key.
template <typename Value, typename KeyOf>
class SelfKeyedSet {
 public:
  Value* Find(std::string_view key) {
    auto it = set_.find(key);
    return it == set_.end() ? nullptr : &it->value;
  }
  const Value* Find(std::string_view key) const {
    auto it = set_.find(key);
    return it == set_.end() ? nullptr : &it->value;
  }
  bool Contains(std::string_view key) const { return set_.contains(key); }

  // Adds `value` unless one with its key is there; returns the value kept and
  // whether it is the new one.
  std::pair<Value*, bool> Insert(Value value) {
    const size_t hash = Hash()(std::string_view(KeyOf()(value)));
    auto [it, inserted] = set_.insert(Slot{std::move(value), hash});
    return {&it->value, inserted};
  }
  // Removes the value with `key`, if any; returns whether one was removed.
  bool Erase(std::string_view key) { return set_.erase(key) > 0; }
  // Removes the value with `key` and hands it over (a default Value if there
  // is none). `key` may be read from the value itself.
  Value Take(std::string_view key) {
    auto node = set_.extract(key);
    return node.empty() ? Value() : std::move(node.value().value);
  }

  size_t size() const { return set_.size(); }
  bool empty() const { return set_.empty(); }
  template <typename F>
  void ForEach(F&& f) const {
    for (const Slot& s : set_) f(s.value);
  }

 private:
  // The set hands out its elements as const; `value` may still change as
  // long as its key does not (see above), which leaves its hash unchanged.
  // The hash is kept beside the value: growing the table rehashes every
  // slot, and reading each key would chase the value's pointers.
  struct Slot {
    mutable Value value;
    size_t hash;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return absl::Hash<std::string_view>()(key); }
    size_t operator()(const Slot& s) const { return s.hash; }
  };
  struct Eq {
    using is_transparent = void;
    static std::string_view Key(std::string_view k) { return k; }
    static std::string_view Key(const Slot& s) { return KeyOf()(s.value); }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return Key(a) == Key(b);
    }
  };
  absl::flat_hash_set<Slot, Hash, Eq> set_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_SCHEDULER_SELF_KEYED_SET_H_
