// SharedState: objects that plugins share across the profiles of one
// scheduler, as upstream's scheduler builds some things once and hands them
// to every profile's plugins (DynamicResources' claim tracker, which must see
// the devices that any profile's pods hold or are about to hold).
//
//   std::shared_ptr<ClaimTracker> tracker = handle.shared_state()->GetOrCreate<ClaimTracker>(
//       "DynamicResources/claims", [&] { return std::make_shared<ClaimTracker>(handle.objects()); });
//
// The first plugin to ask for a key creates the object; every later ask gets
// the same one. A key names one type: asking for it as another type is an
// error, not a second object. Objects live as long as the state (the
// scheduler) or their last holder, whichever is later.
//
// Thread-safe; usually called from plugin factories.
#ifndef SCHEDKIT_FRAMEWORK_SHARED_STATE_H_
#define SCHEDKIT_FRAMEWORK_SHARED_STATE_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::framework {

class SharedState {
 public:
  SharedState() = default;
  SharedState(const SharedState&) = delete;
  SharedState& operator=(const SharedState&) = delete;

  // The object under `key`, made by `make` (called once, under the state's
  // lock, so it must not call back into this state) when there is none.
  // FailedPrecondition when `key` holds an object of another type.
  template <typename T>
  absl::StatusOr<std::shared_ptr<T>> GetOrCreate(std::string_view key, const std::function<std::shared_ptr<T>()>& make) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = objects_.find(absl::string_view(key.data(), key.size()));
    if (it == objects_.end()) {
      std::shared_ptr<T> made = make();
      objects_.emplace(std::string(key), Entry{std::type_index(typeid(T)), made});
      return made;
    }
    if (it->second.type != std::type_index(typeid(T))) {
      return absl::FailedPreconditionError(
          schedkit::StrCat("shared state \"", key, "\" holds an object of another type"));
    }
    return std::static_pointer_cast<T>(it->second.object);
  }

 private:
  struct Entry {
    std::type_index type;
    std::shared_ptr<void> object;
  };
  std::mutex mu_;
  absl::flat_hash_map<std::string, Entry> objects_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_SHARED_STATE_H_
