#include "schedkit/api/selector.h"

#include <algorithm>

#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace {

bool KeyLess(const LabelSet::Label& a, const LabelSet::Label& b) { return a.key < b.key; }

absl::StatusOr<SelectorOp> ParseOp(const std::string& op, bool allow_numeric) {
  if (op == "In") return SelectorOp::kIn;
  if (op == "NotIn") return SelectorOp::kNotIn;
  if (op == "Exists") return SelectorOp::kExists;
  if (op == "DoesNotExist") return SelectorOp::kDoesNotExist;
  if (allow_numeric && op == "Gt") return SelectorOp::kGt;
  if (allow_numeric && op == "Lt") return SelectorOp::kLt;
  return absl::InvalidArgumentError(schedkit::StrCat("unsupported operator \"", op, "\""));
}

template <typename Req>
absl::StatusOr<LabelRequirement> CompileRequirement(const Req& r, bool allow_numeric) {
  LabelRequirement out;
  out.key = Symbol::Intern(r.key());
  auto op = ParseOp(r.operator_(), allow_numeric);
  if (!op.ok()) return op.status();
  out.op = *op;
  switch (out.op) {
    case SelectorOp::kIn:
    case SelectorOp::kNotIn:
      if (r.values().empty()) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("key \"", r.key(), "\": values must be non-empty for ", r.operator_()));
      }
      for (const std::string& v : r.values()) out.values.push_back(Symbol::Intern(v));
      break;
    case SelectorOp::kExists:
    case SelectorOp::kDoesNotExist:
      if (!r.values().empty()) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("key \"", r.key(), "\": values must be empty for ", r.operator_()));
      }
      break;
    case SelectorOp::kGt:
    case SelectorOp::kLt: {
      std::optional<int64_t> bound;
      if (r.values().size() == 1) bound = Symbol::Intern(r.values(0)).AsInt();
      if (!bound) {
        return absl::InvalidArgumentError(schedkit::StrCat(
            "key \"", r.key(), "\": ", r.operator_(), " needs exactly one integer value"));
      }
      out.bound = *bound;
      break;
    }
  }
  return out;
}

}  // namespace

LabelSet LabelSet::FromMap(const google::protobuf::Map<std::string, std::string>& labels) {
  std::vector<Label> out;
  out.reserve(labels.size());
  for (const auto& [k, v] : labels) out.push_back({Symbol::Intern(k), Symbol::Intern(v)});
  return FromPairs(std::move(out));
}

LabelSet LabelSet::FromPairs(std::vector<Label> labels) {
  LabelSet s;
  std::sort(labels.begin(), labels.end(), KeyLess);
  // Later duplicates win, as a map assignment would.
  for (Label& l : labels) {
    if (!s.labels_.empty() && s.labels_.back().key == l.key) {
      s.labels_.back().value = l.value;
    } else {
      s.labels_.push_back(l);
    }
  }
  return s;
}

const Symbol* LabelSet::FindSorted(Symbol key) const {
  auto it = std::lower_bound(labels_.begin(), labels_.end(), Label{key, Symbol()}, KeyLess);
  if (it == labels_.end() || it->key != key) return nullptr;
  return &it->value;
}

bool operator==(const LabelSet& a, const LabelSet& b) {
  return std::equal(a.labels_.begin(), a.labels_.end(), b.labels_.begin(), b.labels_.end(),
                    [](const LabelSet::Label& x, const LabelSet::Label& y) {
                      return x.key == y.key && x.value == y.value;
                    });
}

bool LabelRequirement::Matches(const LabelSet& labels) const {
  const Symbol* v = labels.Find(key);
  switch (op) {
    case SelectorOp::kIn:
      return v != nullptr && std::find(values.begin(), values.end(), *v) != values.end();
    case SelectorOp::kNotIn:
      return v == nullptr || std::find(values.begin(), values.end(), *v) == values.end();
    case SelectorOp::kExists:
      return v != nullptr;
    case SelectorOp::kDoesNotExist:
      return v == nullptr;
    case SelectorOp::kGt:
    case SelectorOp::kLt: {
      if (v == nullptr) return false;
      const std::optional<int64_t> n = v->AsInt();
      if (!n) return false;
      return op == SelectorOp::kGt ? *n > bound : *n < bound;
    }
  }
  return false;
}

LabelSelector LabelSelector::Everything() {
  LabelSelector s;
  s.nothing_ = false;
  return s;
}

absl::StatusOr<LabelSelector> LabelSelector::Compile(const v1::LabelSelector& selector) {
  LabelSelector s = Everything();
  // matchLabels entries are equality requirements; order them by key so the
  // compiled form does not depend on map iteration order.
  std::vector<std::pair<std::string, std::string>> eq(selector.match_labels().begin(),
                                                      selector.match_labels().end());
  std::sort(eq.begin(), eq.end());
  for (const auto& [k, v] : eq) {
    s.requirements_.push_back(
        LabelRequirement{Symbol::Intern(k), SelectorOp::kIn, {Symbol::Intern(v)}, 0});
  }
  for (const auto& r : selector.match_expressions()) {
    auto req = CompileRequirement(r, /*allow_numeric=*/false);
    if (!req.ok()) return req.status();
    s.requirements_.push_back(*std::move(req));
  }
  return s;
}

absl::StatusOr<LabelSelector> LabelSelector::CompileOptional(bool present,
                                                             const v1::LabelSelector& selector) {
  if (!present) return LabelSelector();
  return Compile(selector);
}

bool LabelSelector::Matches(const LabelSet& labels) const {
  if (nothing_) return false;
  for (const LabelRequirement& r : requirements_) {
    if (!r.Matches(labels)) return false;
  }
  return true;
}

void LabelSelector::AddRequirement(LabelRequirement r) {
  if (nothing_) return;  // still matches nothing
  requirements_.push_back(std::move(r));
}

bool NodeSelector::Term::Matches(const LabelSet& node_labels, Symbol node_name) const {
  for (const LabelRequirement& r : labels) {
    if (!r.Matches(node_labels)) return false;
  }
  for (const auto& [op, name] : name_fields) {
    if ((op == SelectorOp::kIn) != (node_name == name)) return false;
  }
  return true;
}

absl::StatusOr<NodeSelector::Term> NodeSelector::CompileTerm(const v1::NodeSelectorTerm& term) {
  Term t;
  for (const auto& r : term.match_expressions()) {
    auto req = CompileRequirement(r, /*allow_numeric=*/true);
    if (!req.ok()) return req.status();
    t.labels.push_back(*std::move(req));
  }
  for (const auto& f : term.match_fields()) {
    if (f.key() != "metadata.name") {
      return absl::InvalidArgumentError(schedkit::StrCat("unsupported field selector \"", f.key(), "\""));
    }
    if ((f.operator_() != "In" && f.operator_() != "NotIn") || f.values_size() != 1) {
      return absl::InvalidArgumentError(
          "matchFields on metadata.name needs operator In or NotIn with exactly one value");
    }
    t.name_fields.emplace_back(f.operator_() == "In" ? SelectorOp::kIn : SelectorOp::kNotIn,
                               Symbol::Intern(f.values(0)));
  }
  return t;
}

absl::StatusOr<NodeSelector> NodeSelector::Compile(const v1::NodeSelector& selector) {
  NodeSelector s;
  for (const auto& term : selector.node_selector_terms()) {
    // An empty term selects nothing, so it cannot widen the OR.
    if (term.match_expressions().empty() && term.match_fields().empty()) continue;
    auto t = CompileTerm(term);
    if (!t.ok()) return t.status();
    s.terms_.push_back(*std::move(t));
  }
  return s;
}

NodeSelector NodeSelector::FromMap(const google::protobuf::Map<std::string, std::string>& match) {
  Term t;
  std::vector<std::pair<std::string, std::string>> eq(match.begin(), match.end());
  std::sort(eq.begin(), eq.end());
  for (const auto& [k, v] : eq) {
    t.labels.push_back(LabelRequirement{Symbol::Intern(k), SelectorOp::kIn, {Symbol::Intern(v)}, 0});
  }
  NodeSelector s;
  s.terms_.push_back(std::move(t));
  return s;
}

bool NodeSelector::Matches(const LabelSet& labels, Symbol node_name) const {
  for (const Term& t : terms_) {
    if (t.Matches(labels, node_name)) return true;
  }
  return false;
}

}  // namespace schedkit::api
