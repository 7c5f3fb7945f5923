// SelfKeyedSet: values found by the key they carry, replaced in place by a
// value with the same key, taken out whole.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "schedkit/scheduler/self_keyed_set.h"

namespace schedkit::scheduler {
namespace {

struct Item {
  std::string uid;
  int version = 0;
};
struct UidOf {
  const std::string& operator()(const std::unique_ptr<Item>& i) const { return i->uid; }
};
using Items = SelfKeyedSet<std::unique_ptr<Item>, UidOf>;

std::unique_ptr<Item> Make(std::string uid, int version) {
  return std::make_unique<Item>(Item{std::move(uid), version});
}

TEST_CASE("SelfKeyedSet finds a value by the key it carries, and keeps the first of a key", "[scheduler]") {
  Items items;
  CHECK(items.empty());
  CHECK(items.Insert(Make("a", 1)).second);
  CHECK(items.Insert(Make("b", 1)).second);
  const auto [kept, inserted] = items.Insert(Make("a", 2));
  CHECK_FALSE(inserted);
  CHECK((*kept)->version == 1);
  CHECK(items.size() == 2);
  // Found by a key that is not the value's own string.
  const std::string key = std::string("a");
  REQUIRE(items.Find(key) != nullptr);
  CHECK((*items.Find(key))->version == 1);
  CHECK(items.Find("c") == nullptr);
  CHECK(items.Contains("b"));
  CHECK_FALSE(items.Contains("c"));
}

TEST_CASE("SelfKeyedSet replaces a value in place by one with its key, and hands a value over whole",
          "[scheduler]") {
  Items items;
  for (int i = 0; i < 100; ++i) items.Insert(Make("uid-" + std::to_string(i), 0));
  // Replaced: the new value owns the key string now, and lookups still work
  // after the table grows (every slot rehashed from its value's key).
  *items.Find("uid-7") = Make("uid-7", 3);
  for (int i = 100; i < 1000; ++i) items.Insert(Make("uid-" + std::to_string(i), 0));
  REQUIRE(items.Find("uid-7") != nullptr);
  CHECK((*items.Find("uid-7"))->version == 3);

  // Taken by a key read from the value itself.
  const Item* raw = items.Find("uid-9")->get();
  std::unique_ptr<Item> taken = items.Take(raw->uid);
  CHECK(taken.get() == raw);
  CHECK_FALSE(items.Contains("uid-9"));
  CHECK(items.Take("uid-9") == nullptr);

  CHECK(items.Erase("uid-10"));
  CHECK_FALSE(items.Erase("uid-10"));
  CHECK(items.size() == 998);
  int seen = 0;
  items.ForEach([&](const std::unique_ptr<Item>& i) { seen += i->uid.rfind("uid-", 0) == 0 ? 1 : 0; });
  CHECK(seen == 998);
}

}  // namespace
}  // namespace schedkit::scheduler
