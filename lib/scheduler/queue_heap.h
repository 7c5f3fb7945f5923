// IndexedHeap: a binary min-heap of pointers whose elements remember their
// slot, so the scheduling queue can remove or re-order any pod in O(log n)
// (upstream's backend/heap keyed by pod). Elements must expose a
// `size_t heap_index` member; `Less` is a strict weak order on `const T&`.
//
//   IndexedHeap<Entry, ByPriority> active(ByPriority{...});
//   active.Push(e);  active.Fix(e);  active.Erase(e);  Entry* top = active.Pop();
//
// Not thread-safe; the queue guards it with its lock.
#ifndef SCHEDKIT_LIB_SCHEDULER_QUEUE_HEAP_H_
#define SCHEDKIT_LIB_SCHEDULER_QUEUE_HEAP_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace schedkit::scheduler::queue_internal {

template <typename T, typename Less>
class IndexedHeap {
 public:
  explicit IndexedHeap(Less less) : less_(std::move(less)) {}

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  T* Top() const { return items_.empty() ? nullptr : items_.front(); }
  const std::vector<T*>& items() const { return items_; }

  void Push(T* e) {
    e->heap_index = items_.size();
    items_.push_back(e);
    Up(e->heap_index);
  }

  T* Pop() {
    if (items_.empty()) return nullptr;
    T* top = items_.front();
    Erase(top);
    return top;
  }

  // Removes `e`, which must be in this heap.
  void Erase(T* e) {
    const size_t i = e->heap_index;
    assert(i < items_.size() && items_[i] == e);
    const size_t last = items_.size() - 1;
    if (i != last) {
      Swap(i, last);
      items_.pop_back();
      if (!Down(i)) Up(i);
    } else {
      items_.pop_back();
    }
  }

  // Restores the order after `e`'s key changed in place.
  void Fix(T* e) {
    if (!Down(e->heap_index)) Up(e->heap_index);
  }

  // The elements in pop order (a sorted copy; for listings, not hot paths).
  std::vector<T*> Sorted() const {
    std::vector<T*> out = items_;
    std::sort(out.begin(), out.end(), [this](const T* a, const T* b) { return less_(*a, *b); });
    return out;
  }

 private:
  bool LessAt(size_t a, size_t b) const { return less_(*items_[a], *items_[b]); }

  void Swap(size_t a, size_t b) {
    std::swap(items_[a], items_[b]);
    items_[a]->heap_index = a;
    items_[b]->heap_index = b;
  }

  void Up(size_t i) {
    while (i > 0) {
      const size_t parent = (i - 1) / 2;
      if (!LessAt(i, parent)) break;
      Swap(i, parent);
      i = parent;
    }
  }

  // True if the element moved.
  bool Down(size_t i) {
    const size_t start = i;
    const size_t n = items_.size();
    for (;;) {
      size_t smallest = i;
      const size_t left = 2 * i + 1;
      const size_t right = left + 1;
      if (left < n && LessAt(left, smallest)) smallest = left;
      if (right < n && LessAt(right, smallest)) smallest = right;
      if (smallest == i) break;
      Swap(i, smallest);
      i = smallest;
    }
    return i != start;
  }

  std::vector<T*> items_;
  Less less_;
};

}  // namespace schedkit::scheduler::queue_internal

#endif  // SCHEDKIT_LIB_SCHEDULER_QUEUE_HEAP_H_
