// Internal: Go's sort.Slice algorithm (pattern-defeating quicksort as in Go's
// standard library), reproduced step for step.
//
// Why: upstream sorts preemption victims with sort.Slice and a comparator
// that is not a strict weak order — a pod without status.startTime is
// compared at time.Now(), read afresh on every call, so two such pods each
// look "more important" than the other. The resulting order is whatever
// Go's algorithm makes of that comparator; matching upstream's victims means
// running the same algorithm with the same sequence of comparisons.
#ifndef SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_GO_SORT_H_
#define SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_GO_SORT_H_

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace schedkit::plugins::preemption {

template <typename T, typename Less>
class GoSorter {
 public:
  GoSorter(std::vector<T>& v, Less less) : v_(v), less_(std::move(less)) {}

  void Sort() {
    const int n = static_cast<int>(v_.size());
    Pdq(0, n, std::bit_width(static_cast<unsigned>(n)));
  }

 private:
  enum Hint { kUnknown, kIncreasing, kDecreasing };

  bool L(int i, int j) { return less_(v_[i], v_[j]); }
  void S(int i, int j) { std::swap(v_[i], v_[j]); }

  void Insertion(int a, int b) {
    for (int i = a + 1; i < b; ++i) {
      for (int j = i; j > a && L(j, j - 1); --j) S(j, j - 1);
    }
  }

  void SiftDown(int lo, int hi, int first) {
    int root = lo;
    for (;;) {
      int child = 2 * root + 1;
      if (child >= hi) return;
      if (child + 1 < hi && L(first + child, first + child + 1)) ++child;
      if (!L(first + root, first + child)) return;
      S(first + root, first + child);
      root = child;
    }
  }

  void Heap(int a, int b) {
    const int first = a, hi = b - a;
    for (int i = (hi - 1) / 2; i >= 0; --i) SiftDown(i, hi, first);
    for (int i = hi - 1; i >= 0; --i) {
      S(first, first + i);
      SiftDown(0, i, first);
    }
  }

  void Pdq(int a, int b, int limit) {
    constexpr int kMaxInsertion = 12;
    bool was_balanced = true, was_partitioned = true;
    for (;;) {
      const int length = b - a;
      if (length <= kMaxInsertion) {
        Insertion(a, b);
        return;
      }
      if (limit == 0) {
        Heap(a, b);
        return;
      }
      if (!was_balanced) {
        BreakPatterns(a, b);
        --limit;
      }
      auto [pivot, hint] = ChoosePivot(a, b);
      if (hint == kDecreasing) {
        Reverse(a, b);
        pivot = (b - 1) - (pivot - a);
        hint = kIncreasing;
      }
      if (was_balanced && was_partitioned && hint == kIncreasing && PartialInsertion(a, b)) return;
      if (a > 0 && !L(a - 1, pivot)) {
        a = PartitionEqual(a, b, pivot);
        continue;
      }
      auto [mid, already] = Partition(a, b, pivot);
      was_partitioned = already;
      const int left = mid - a, right = b - mid, threshold = length / 8;
      if (left < right) {
        was_balanced = left >= threshold;
        Pdq(a, mid, limit);
        a = mid + 1;
      } else {
        was_balanced = right >= threshold;
        Pdq(mid + 1, b, limit);
        b = mid;
      }
    }
  }

  std::pair<int, bool> Partition(int a, int b, int pivot) {
    S(a, pivot);
    int i = a + 1, j = b - 1;
    while (i <= j && L(i, a)) ++i;
    while (i <= j && !L(j, a)) --j;
    if (i > j) {
      S(j, a);
      return {j, true};
    }
    S(i, j);
    ++i;
    --j;
    for (;;) {
      while (i <= j && L(i, a)) ++i;
      while (i <= j && !L(j, a)) --j;
      if (i > j) break;
      S(i, j);
      ++i;
      --j;
    }
    S(j, a);
    return {j, false};
  }

  int PartitionEqual(int a, int b, int pivot) {
    S(a, pivot);
    int i = a + 1, j = b - 1;
    for (;;) {
      while (i <= j && !L(a, i)) ++i;
      while (i <= j && L(a, j)) --j;
      if (i > j) break;
      S(i, j);
      ++i;
      --j;
    }
    return i;
  }

  bool PartialInsertion(int a, int b) {
    constexpr int kMaxSteps = 5, kShortestShifting = 50;
    int i = a + 1;
    for (int step = 0; step < kMaxSteps; ++step) {
      while (i < b && !L(i, i - 1)) ++i;
      if (i == b) return true;
      if (b - a < kShortestShifting) return false;
      S(i, i - 1);
      if (i - a >= 2) {
        for (int j = i - 1; j >= 1; --j) {
          if (!L(j, j - 1)) break;
          S(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (int j = i + 1; j < b; ++j) {
          if (!L(j, j - 1)) break;
          S(j, j - 1);
        }
      }
    }
    return false;
  }

  void BreakPatterns(int a, int b) {
    const int length = b - a;
    if (length < 8) return;
    uint64_t random = static_cast<uint64_t>(length);  // Go's xorshift seeded with the length
    const unsigned modulus = 1u << std::bit_width(static_cast<unsigned>(length));
    for (int idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; ++idx) {
      random ^= random << 13;
      random ^= random >> 7;
      random ^= random << 17;
      int other = static_cast<int>(static_cast<unsigned>(random) & (modulus - 1));
      if (other >= length) other -= length;
      S(idx, a + other);
    }
  }

  std::pair<int, Hint> ChoosePivot(int a, int b) {
    constexpr int kShortestNinther = 50, kMaxSwaps = 4 * 3;
    const int l = b - a;
    int swaps = 0;
    int i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
    if (l >= 8) {
      if (l >= kShortestNinther) {
        i = Median(i - 1, i, i + 1, swaps);
        j = Median(j - 1, j, j + 1, swaps);
        k = Median(k - 1, k, k + 1, swaps);
      }
      j = Median(i, j, k, swaps);
    }
    if (swaps == 0) return {j, kIncreasing};
    if (swaps == kMaxSwaps) return {j, kDecreasing};
    return {j, kUnknown};
  }

  void Order2(int& a, int& b, int& swaps) {
    if (L(b, a)) {
      ++swaps;
      std::swap(a, b);
    }
  }

  int Median(int a, int b, int c, int& swaps) {
    Order2(a, b, swaps);
    Order2(b, c, swaps);
    Order2(a, b, swaps);
    return b;
  }

  void Reverse(int a, int b) {
    for (int i = a, j = b - 1; i < j; ++i, --j) S(i, j);
  }

  std::vector<T>& v_;
  Less less_;
};

// sort.Slice(v, less) as Go runs it.
template <typename T, typename Less>
void GoSortSlice(std::vector<T>& v, Less less) {
  GoSorter<T, Less>(v, std::move(less)).Sort();
}

}  // namespace schedkit::plugins::preemption

#endif  // SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_GO_SORT_H_
