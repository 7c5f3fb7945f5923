// IndexedHeap against a sorted reference: after random pushes, erasures from
// any slot and key changes, it pops in the reference's order. A stale
// heap_index would erase or fix the wrong slot and show up in that order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <random>
#include <vector>

#include "scheduler/queue_heap.h"

namespace schedkit::scheduler::queue_internal {
namespace {

struct Item {
  int id = 0;
  size_t heap_index = 0;
};

struct Key {
  int priority = 0;
  int id = 0;  // ties broken by id: a total order, as the queue's keys are
};

struct KeyLess {
  bool operator()(const Key& a, const Item&, const Key& b, const Item&) const {
    return a.priority != b.priority ? a.priority < b.priority : a.id < b.id;
  }
};

struct ItemLess {
  const std::vector<int>* priority;
  bool operator()(const Item& a, const Item& b) const {
    const int pa = (*priority)[a.id];
    const int pb = (*priority)[b.id];
    return pa != pb ? pa < pb : a.id < b.id;
  }
};

TEST_CASE("IndexedHeap pops in order through random pushes, erasures and key changes", "[queue]") {
  std::mt19937 rng(20261202);
  for (int round = 0; round < 50; ++round) {
    const int n = 1 + static_cast<int>(rng() % 300);
    std::vector<std::unique_ptr<Item>> items;
    std::vector<int> priority(n);
    std::vector<bool> in_heap(n, false);
    IndexedHeap<Item, KeyLess, Key> keyed(KeyLess{});
    IndexedHeap<Item, ItemLess> plain(ItemLess{&priority});
    std::vector<std::unique_ptr<Item>> plain_items;
    for (int i = 0; i < n; ++i) {
      items.push_back(std::make_unique<Item>(Item{i, 0}));
      plain_items.push_back(std::make_unique<Item>(Item{i, 0}));
    }
    for (int step = 0; step < 4 * n; ++step) {
      const int i = static_cast<int>(rng() % n);
      const int action = static_cast<int>(rng() % 4);
      if (!in_heap[i]) {
        priority[i] = static_cast<int>(rng() % 20);  // many ties
        keyed.Push(items[i].get(), Key{priority[i], i});
        plain.Push(plain_items[i].get());
        in_heap[i] = true;
      } else if (action == 0) {
        keyed.Erase(items[i].get());
        plain.Erase(plain_items[i].get());
        in_heap[i] = false;
      } else if (action == 1) {
        priority[i] = static_cast<int>(rng() % 20);
        keyed.Fix(items[i].get(), Key{priority[i], i});
        plain.Fix(plain_items[i].get());
      }
    }
    std::vector<int> want;
    for (int i = 0; i < n; ++i) {
      if (in_heap[i]) want.push_back(i);
    }
    std::sort(want.begin(), want.end(),
              [&](int a, int b) { return priority[a] != priority[b] ? priority[a] < priority[b] : a < b; });
    std::vector<int> sorted;
    for (const Item* it : keyed.Sorted()) sorted.push_back(it->id);
    CHECK(sorted == want);
    std::vector<int> got_keyed, got_plain;
    while (!keyed.empty()) got_keyed.push_back(keyed.Pop()->id);
    while (!plain.empty()) got_plain.push_back(plain.Pop()->id);
    CHECK(got_keyed == want);
    CHECK(got_plain == want);
    CHECK(keyed.Pop() == nullptr);
  }
}

}  // namespace
}  // namespace schedkit::scheduler::queue_internal
