// IndexedHeap: a 4-ary min-heap of pointers whose elements remember their
// slot, so the scheduling queue can remove or re-order any pod in O(log n)
// (upstream's backend/heap keyed by pod). Elements must expose a
// `size_t heap_index` member; `Less` is a strict weak order on `const T&`.
// Four children per node: every level a sift passes writes one element's
// heap_index, a cache miss in a large queue, and four children halve the
// levels while their keys share the array's lines.
//
//   IndexedHeap<Entry, ByPriority> active(ByPriority{...});
//   active.Push(e);  active.Fix(e);  active.Erase(e);  Entry* top = active.Pop();
//
// With a `Key` type, each element's key sits beside its pointer in the
// heap's array and `Less` takes (key, element) pairs: a comparison the keys
// decide then loads nothing but the array, where a pointer chase would miss
// the cache once per level of a large heap. Push and Fix take the key.
//
// Not thread-safe; the queue guards it with its lock.
#ifndef SCHEDKIT_LIB_SCHEDULER_QUEUE_HEAP_H_
#define SCHEDKIT_LIB_SCHEDULER_QUEUE_HEAP_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace schedkit::scheduler::queue_internal {

struct NoHeapKey {};

template <typename T, typename Less, typename Key = NoHeapKey>
class IndexedHeap {
  static constexpr bool kKeyed = !std::is_same_v<Key, NoHeapKey>;

 public:
  explicit IndexedHeap(Less less) : less_(std::move(less)) {}

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  T* Top() const { return items_.empty() ? nullptr : items_.front().item; }

  void Push(T* e, Key key = {}) {
    e->heap_index = items_.size();
    items_.push_back(Slot{key, e});
    Up(e->heap_index);
  }

  T* Pop() {
    if (items_.empty()) return nullptr;
    T* top = items_.front().item;
    Erase(top);
    return top;
  }

  // Removes `e`, which must be in this heap.
  void Erase(T* e) {
    const size_t i = e->heap_index;
    assert(i < items_.size() && items_[i].item == e);
    const size_t last = items_.size() - 1;
    if (i != last) {
      Place(i, items_[last]);
      items_.pop_back();
      if (!Down(i)) Up(i);
    } else {
      items_.pop_back();
    }
  }

  void Fix(T* e, Key key = {}) {
    items_[e->heap_index].key = key;
    if (!Down(e->heap_index)) Up(e->heap_index);
  }

  // The elements in pop order (a sorted copy; for listings, not hot paths).
  std::vector<T*> Sorted() const {
    std::vector<Slot> slots = items_;
    std::sort(slots.begin(), slots.end(), [this](const Slot& a, const Slot& b) { return SlotLess(a, b); });
    std::vector<T*> out;
    out.reserve(slots.size());
    for (const Slot& s : slots) out.push_back(s.item);
    return out;
  }

 private:
  struct Slot {
    [[no_unique_address]] Key key;
    T* item;
  };

  bool SlotLess(const Slot& a, const Slot& b) const {
    if constexpr (kKeyed) {
      return less_(a.key, *a.item, b.key, *b.item);
    } else {
      return less_(*a.item, *b.item);
    }
  }
  void Place(size_t i, const Slot& slot) {
    items_[i] = slot;
    slot.item->heap_index = i;
  }
  // Sifts by moving a hole rather than swapping: each level writes one slot.
  void Up(size_t i) {
    const Slot moving = items_[i];
    const size_t start = i;
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!SlotLess(moving, items_[parent])) break;
      Place(i, items_[parent]);
      i = parent;
    }
    if (i != start) Place(i, moving);
  }
  // True if the element moved.
  bool Down(size_t i) {
    const Slot moving = items_[i];
    const size_t start = i;
    const size_t n = items_.size();
    for (;;) {
      const size_t first = kArity * i + 1;
      if (first >= n) break;
      const size_t end = std::min(first + kArity, n);
      size_t best = first;
      for (size_t c = first + 1; c < end; ++c) {
        if (SlotLess(items_[c], items_[best])) best = c;
      }
      if (!SlotLess(items_[best], moving)) break;
      Place(i, items_[best]);
      i = best;
    }
    if (i != start) Place(i, moving);
    return i != start;
  }

  static constexpr size_t kArity = 4;
  std::vector<Slot> items_;
  Less less_;
};

}  // namespace schedkit::scheduler::queue_internal

#endif  // SCHEDKIT_LIB_SCHEDULER_QUEUE_HEAP_H_
