// apimachinery's content validation as upstream's tests state it:
// util/validation's TestIsDNS1123Subdomain and TestIsQualifiedName /
// TestIsValidLabelValue (good and bad inputs; the error texts are checked
// where the plugins print them, in the NodeAffinity and NodeResources tests).
#include "api/apimachinery_validation.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace schedkit::api::internal {
namespace {

TEST_CASE("TestIsDNS1123Subdomain", "[apimachinery]") {
  for (const std::string& good : std::vector<std::string>{
           "a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", "a.a", "ab.a",
           "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1",
           "0.a", "01.a", "012.a", "1a.a", "1-a.a", "1--a--b--2", "0.1", "01.1", "012.1", "1a.1", "1-a.1",
           "1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", std::string(253, 'a')}) {
    CAPTURE(good);
    CHECK(IsDns1123Subdomain(good));
  }
  for (const std::string& bad : std::vector<std::string>{
           "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_",
           "_1", "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2", " ", "a ", " a", "a b", "1 ", " 1", "1 2",
           "A.a", "aB.a", "ab.A", "A1.a", "a1.A", "A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a",
           "1a.A", "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee", "a@b", "a,b", "a;b", "a:b",
           "a%b", "a?b", "a$b", std::string(254, 'a')}) {
    CAPTURE(bad);
    CHECK_FALSE(IsDns1123Subdomain(bad));
  }
}

TEST_CASE("TestIsQualifiedName (label keys)", "[apimachinery]") {
  for (const std::string& good : std::vector<std::string>{
           "simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
           "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple",
           "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123",
           "requests.storage-foo", std::string(63, 'a'), std::string(253, 'a') + "/" + std::string(63, 'b')}) {
    CAPTURE(good);
    CHECK(LabelKeyErrors(good).empty());
  }
  for (const std::string& bad : std::vector<std::string>{
           "nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash",
           "Example.com/abc", "example_com/abc", "example.com/", "/simple", std::string(64, 'a'),
           std::string(254, 'a') + "/abc"}) {
    CAPTURE(bad);
    CHECK_FALSE(LabelKeyErrors(bad).empty());
  }
}

TEST_CASE("TestIsValidLabelValue", "[apimachinery]") {
  for (const std::string& good : std::vector<std::string>{"simple", "now-with-dashes", "1-starts-with-num",
                                                          "end-with-num-1", "1234", std::string(63, 'a'), ""}) {
    CAPTURE(good);
    CHECK(LabelValueErrors(good).empty());
  }
  for (const std::string& bad :
       std::vector<std::string>{"nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad",
                                "-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.",
                                std::string(64, 'a')}) {
    CAPTURE(bad);
    CHECK_FALSE(LabelValueErrors(bad).empty());
  }
}

TEST_CASE("field.Invalid's text", "[apimachinery]") {
  CHECK(FieldInvalid("spec.key", "\"a b\"", "must be one word") == "spec.key: Invalid value: \"a b\": must be one word");
}

}  // namespace
}  // namespace schedkit::api::internal
