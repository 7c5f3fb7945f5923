// Label sets and compiled selectors: Kubernetes label selectors
// (matchLabels + In/NotIn/Exists/DoesNotExist) and node selectors (terms of
// label requirements, with Gt/Lt, and matchFields on metadata.name).
//
//   LabelSet labels = LabelSet::FromMap(pod.metadata().labels());
//   SCHEDKIT_ASSIGN_OR_RETURN(LabelSelector sel, LabelSelector::Compile(term.label_selector()));
//   if (sel.Matches(labels)) ...
//
// Compiled once (when a pod or node is parsed), evaluated many times: keys and
// values are interned Symbols, so matching compares integers and never
// allocates. Thread-safe: immutable after construction.
#ifndef SCHEDKIT_API_SELECTOR_H_
#define SCHEDKIT_API_SELECTOR_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "google/protobuf/map.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/meta.pb.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::api {

// An object's labels, sorted by key symbol for binary search.
class LabelSet {
 public:
  struct Label {
    Symbol key;
    Symbol value;
  };

  LabelSet() = default;
  static LabelSet FromMap(const google::protobuf::Map<std::string, std::string>& labels);
  static LabelSet FromPairs(std::vector<Label> labels);

  std::optional<Symbol> Get(Symbol key) const {
    const Symbol* value = Find(key);
    return value != nullptr ? std::optional<Symbol>(*value) : std::nullopt;
  }
  // Get for loops over many nodes: the value in place, or nullptr. GCC
  // builds a returned optional<Symbol> in memory and reads it back whole,
  // which stalls store forwarding once per call.
  const Symbol* Find(Symbol key) const {
    // Nodes and pods carry a handful of labels (keys unique): a scan is
    // cheaper than a binary search there, and filters look up once per node.
    if (labels_.size() > kScanned) return FindSorted(key);
    for (const Label& l : labels_) {
      if (l.key == key) return &l.value;
    }
    return nullptr;
  }
  bool Has(Symbol key) const { return Get(key).has_value(); }
  const std::vector<Label>& labels() const { return labels_; }
  size_t size() const { return labels_.size(); }
  bool empty() const { return labels_.empty(); }
  friend bool operator==(const LabelSet& a, const LabelSet& b);

 private:
  static constexpr size_t kScanned = 12;
  const Symbol* FindSorted(Symbol key) const;

  std::vector<Label> labels_;
};

enum class SelectorOp : uint8_t { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };

// One requirement on a label. Gt/Lt compare the label value as an integer.
struct LabelRequirement {
  Symbol key;
  SelectorOp op = SelectorOp::kExists;
  absl::InlinedVector<Symbol, 2> values;  // In/NotIn
  int64_t bound = 0;                      // Gt/Lt

  bool Matches(const LabelSet& labels) const;
  friend bool operator==(const LabelRequirement&, const LabelRequirement&) = default;
};

// A metav1.LabelSelector. A nil selector matches nothing, an empty one
// everything (the Kubernetes convention for pod affinity and spreading).
class LabelSelector {
 public:
  // Matches nothing.
  LabelSelector() = default;
  static LabelSelector Everything();
  static absl::StatusOr<LabelSelector> Compile(const v1::LabelSelector& selector);
  // Compiles a selector field that may be unset (`present` false → nothing).
  static absl::StatusOr<LabelSelector> CompileOptional(bool present,
                                                       const v1::LabelSelector& selector);

  bool Matches(const LabelSet& labels) const;
  bool MatchesNothing() const { return nothing_; }
  // True for a selector with no requirements, which matches every label set.
  bool IsEverything() const { return !nothing_ && requirements_.empty(); }
  // ANDs one more requirement in (matchLabelKeys / mismatchLabelKeys).
  void AddRequirement(LabelRequirement r);
  const std::vector<LabelRequirement>& requirements() const { return requirements_; }
  // Same requirements in the same order (so also the same meaning).
  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;

 private:
  bool nothing_ = true;
  std::vector<LabelRequirement> requirements_;
};

// A v1.NodeSelector: terms ORed, requirements within a term ANDed. A term
// with no requirements matches nothing.
class NodeSelector {
 public:
  struct Term {
    std::vector<LabelRequirement> labels;
    // matchFields on metadata.name: node name must (In) or must not (NotIn) equal.
    std::vector<std::pair<SelectorOp, Symbol>> name_fields;
    bool Matches(const LabelSet& labels, Symbol node_name) const;
  };

  NodeSelector() = default;  // no terms: matches nothing
  static absl::StatusOr<NodeSelector> Compile(const v1::NodeSelector& selector);
  static absl::StatusOr<Term> CompileTerm(const v1::NodeSelectorTerm& term);
  // A pod's spec.nodeSelector map as a one-term selector of equalities.
  static NodeSelector FromMap(const google::protobuf::Map<std::string, std::string>& match);

  bool Matches(const LabelSet& labels, Symbol node_name) const;
  const std::vector<Term>& terms() const { return terms_; }

 private:
  std::vector<Term> terms_;
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_SELECTOR_H_
