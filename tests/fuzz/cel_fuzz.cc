// libFuzzer target: CEL as DRA's device selectors run it (lib/dra's
// environment: the Kubernetes libraries, cel.bind, `device`), parser,
// planner and evaluator, on arbitrary bytes. Whatever the input, compiling
// gives a selector or an error, and matching a bool or an error, within the
// runtime cost limit; never a crash, a sanitizer report or a hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dra/cel_device.h"
#include "schedkit/api/v1/resource_slice.h"

namespace {

// One device with an attribute of every kind and a capacity.
const schedkit::api::v1::Device& Device() {
  static const schedkit::api::v1::Device* device = [] {
    auto* d = new schedkit::api::v1::Device();
    d->set_name("gpu-0");
    auto& a = *d->mutable_attributes();
    a["model"].set_string_value("a100");
    a["memoryGiB"].set_int_value(80);
    a["mig"].set_bool_value(false);
    a["driverVersion"].set_version_value("1.2.3-rc.1+build.5");
    a["gpu.example.com/pcieRoot"].set_string_value("pci0000:00");
    a["other.example.com/numa"].set_int_value(1);
    auto& c = *d->mutable_capacity();
    c["memory"].set_value("80Gi");
    c["cores"].set_value("1500m");
    return d;
  }();
  return *device;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  schedkit::dra::CompileResult compiled = schedkit::dra::CompileSelector(text);
  if (!compiled.error.ok()) return 0;
  const schedkit::api::v1::Device& device = Device();
  (void)compiled.selector->Matches({.driver = "gpu.example.com",
                                    .allow_multiple_allocations = true,
                                    .attributes = &device.attributes(),
                                    .capacity = &device.capacity()});
  return 0;
}
