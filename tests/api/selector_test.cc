// Label and node selectors: semantics from k8s.io/apimachinery labels and
// component-helpers nodeaffinity, as facts.
#include <catch2/catch.hpp>

#include <map>

#include "schedkit/api/selector.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/testing/builders.h"

namespace schedkit::api {
namespace {

using testing::Selector;
using testing::SelectorRequirement;

LabelSet Labels(std::initializer_list<std::pair<const std::string, std::string>> l) {
  google::protobuf::Map<std::string, std::string> m;
  for (const auto& [k, v] : l) m[k] = v;
  return LabelSet::FromMap(m);
}

TEST_CASE("LabelSet lookups by interned key", "[selector]") {
  LabelSet s = Labels({{"app", "web"}, {"tier", "front"}});
  CHECK(s.Get(Symbol::Intern("app")) == Symbol::Intern("web"));
  CHECK_FALSE(s.Get(Symbol::Intern("missing")).has_value());
  CHECK(s.size() == 2);
  CHECK(s == Labels({{"tier", "front"}, {"app", "web"}}));
}

// Not upstream: small sets are scanned, large ones searched; both find every
// key and miss absent ones, at every size around the switch.
TEST_CASE("LabelSet lookups agree at every size", "[selector]") {
  for (int n = 0; n <= 40; ++n) {
    std::map<std::string, std::string> m;
    for (int i = 0; i < n; ++i) m[schedkit::StrCat("key-", (i * 7) % 41)] = schedkit::StrCat("v", i);
    google::protobuf::Map<std::string, std::string> pm(m.begin(), m.end());
    const LabelSet s = LabelSet::FromMap(pm);
    INFO("labels: " << n);
    REQUIRE(s.size() == m.size());
    for (const auto& [k, v] : m) CHECK(s.Get(Symbol::Intern(k)) == Symbol::Intern(v));
    CHECK_FALSE(s.Get(Symbol::Intern("key-absent")).has_value());
    CHECK_FALSE(s.Has(Symbol::Intern(schedkit::StrCat("key-", 41 + n))));
  }
}

TEST_CASE("label selector operators", "[selector]") {
  const LabelSet labels = Labels({{"app", "web"}, {"version", "2"}});
  struct Case {
    const char* name;
    v1::LabelSelector selector;
    bool want;
  };
  const std::vector<Case> cases = {
      {"matchLabels equal", Selector({{"app", "web"}}), true},
      {"matchLabels differ", Selector({{"app", "db"}}), false},
      {"matchLabels missing key", Selector({{"tier", "x"}}), false},
      {"In hit", Selector({}, {{"app", "In", {"db", "web"}}}), true},
      {"In miss", Selector({}, {{"app", "In", {"db"}}}), false},
      {"NotIn miss", Selector({}, {{"app", "NotIn", {"db"}}}), true},
      {"NotIn hit", Selector({}, {{"app", "NotIn", {"web"}}}), false},
      {"NotIn absent key matches", Selector({}, {{"tier", "NotIn", {"x"}}}), true},
      {"Exists", Selector({}, {{"version", "Exists", {}}}), true},
      {"Exists absent", Selector({}, {{"tier", "Exists", {}}}), false},
      {"DoesNotExist", Selector({}, {{"tier", "DoesNotExist", {}}}), true},
      {"DoesNotExist present", Selector({}, {{"app", "DoesNotExist", {}}}), false},
      {"AND of all", Selector({{"app", "web"}}, {{"version", "In", {"1"}}}), false},
      {"empty selector matches everything", Selector({}), true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto sel = LabelSelector::Compile(c.selector);
    REQUIRE(sel.ok());
    CHECK(sel->Matches(labels) == c.want);
  }
}

TEST_CASE("nil selector matches nothing, empty matches everything", "[selector]") {
  auto nil = LabelSelector::CompileOptional(false, v1::LabelSelector());
  REQUIRE(nil.ok());
  CHECK(nil->MatchesNothing());
  CHECK_FALSE(nil->Matches(Labels({})));
  auto empty = LabelSelector::CompileOptional(true, v1::LabelSelector());
  REQUIRE(empty.ok());
  CHECK(empty->IsEverything());
  CHECK(empty->Matches(Labels({})));
}

TEST_CASE("label selector rejects bad operators and values", "[selector]") {
  CHECK_FALSE(LabelSelector::Compile(Selector({}, {{"a", "Gt", {"1"}}})).ok());
  CHECK_FALSE(LabelSelector::Compile(Selector({}, {{"a", "Equals", {"1"}}})).ok());
  CHECK_FALSE(LabelSelector::Compile(Selector({}, {{"a", "In", {}}})).ok());
  CHECK_FALSE(LabelSelector::Compile(Selector({}, {{"a", "Exists", {"x"}}})).ok());
}

v1::NodeSelectorTerm Term(std::vector<SelectorRequirement> exprs,
                          std::vector<std::pair<std::string, std::string>> name_fields = {}) {
  v1::NodeSelectorTerm t;
  for (const auto& e : exprs) {
    auto* r = t.add_match_expressions();
    r->set_key(e.key);
    r->set_operator_(e.op);
    for (const auto& v : e.values) r->add_values(v);
  }
  for (const auto& [op, name] : name_fields) {
    auto* f = t.add_match_fields();
    f->set_key("metadata.name");
    f->set_operator_(op);
    f->add_values(name);
  }
  return t;
}

TEST_CASE("node selector terms: OR of terms, AND within, Gt/Lt, matchFields", "[selector]") {
  const LabelSet labels = Labels({{"zone", "a"}, {"cores", "16"}, {"gen", "x3"}});
  const Symbol node = Symbol::Intern("node-1");
  struct Case {
    const char* name;
    std::vector<v1::NodeSelectorTerm> terms;
    bool want;
  };
  const std::vector<Case> cases = {
      {"one matching term", {Term({{"zone", "In", {"a"}}})}, true},
      {"AND within a term fails", {Term({{"zone", "In", {"a"}}, {"cores", "Lt", {"8"}}})}, false},
      {"OR across terms", {Term({{"zone", "In", {"b"}}}), Term({{"cores", "Gt", {"8"}}})}, true},
      {"Gt strict", {Term({{"cores", "Gt", {"16"}}})}, false},
      {"Lt", {Term({{"cores", "Lt", {"17"}}})}, true},
      {"Gt on a non-integer label never matches", {Term({{"gen", "Gt", {"1"}}})}, false},
      {"Gt on a missing label", {Term({{"ram", "Gt", {"1"}}})}, false},
      {"matchFields In name", {Term({}, {{"In", "node-1"}})}, true},
      {"matchFields In other name", {Term({}, {{"In", "node-2"}})}, false},
      {"matchFields NotIn", {Term({}, {{"NotIn", "node-2"}})}, true},
      {"labels and fields both", {Term({{"zone", "In", {"a"}}}, {{"In", "node-2"}})}, false},
      {"empty term matches nothing", {v1::NodeSelectorTerm()}, false},
      {"empty term does not block another", {v1::NodeSelectorTerm(), Term({{"zone", "Exists", {}}})}, true},
      {"no terms matches nothing", {}, false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    v1::NodeSelector ns;
    for (const auto& t : c.terms) *ns.add_node_selector_terms() = t;
    auto sel = NodeSelector::Compile(ns);
    REQUIRE(sel.ok());
    CHECK(sel->Matches(labels, node) == c.want);
  }
}

TEST_CASE("nodeSelector map is an AND of equalities", "[selector]") {
  google::protobuf::Map<std::string, std::string> m;
  m["zone"] = "a";
  m["disk"] = "ssd";
  NodeSelector s = NodeSelector::FromMap(m);
  CHECK(s.Matches(Labels({{"zone", "a"}, {"disk", "ssd"}, {"x", "y"}}), Symbol()));
  CHECK_FALSE(s.Matches(Labels({{"zone", "a"}}), Symbol()));
}

TEST_CASE("Symbol interning is stable and parses Go integers", "[symbol]") {
  CHECK(Symbol::Intern("abc") == Symbol::Intern(std::string("ab") + "c"));
  CHECK(Symbol::Intern("abc").str() == "abc");
  CHECK(Symbol().empty());
  CHECK(Symbol::Intern("").empty());
  CHECK(Symbol::Intern("42").AsInt() == 42);
  CHECK(Symbol::Intern("-7").AsInt() == -7);
  CHECK(Symbol::Intern("+7").AsInt() == 7);
  CHECK_FALSE(Symbol::Intern(" 7").AsInt().has_value());
  CHECK_FALSE(Symbol::Intern("9223372036854775808").AsInt().has_value());
  CHECK(Symbol::Intern("-9223372036854775808").AsInt() == INT64_MIN);
  CHECK_FALSE(Symbol::Find("never-interned-text-xyz").has_value());
}

}  // namespace
}  // namespace schedkit::api
