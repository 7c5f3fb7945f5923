// libFuzzer target: the cluster decoder (JSON and YAML, every built-in kind,
// the resource.k8s.io kinds' defaults and validation among them) on
// arbitrary bytes: a decoded cluster or an InvalidArgument naming the file,
// the object and the field; never a crash or a sanitizer report. Objects
// that decode are encoded and decoded again, which must succeed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "schedkit/api/decode.h"
#include "schedkit/api/encode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<schedkit::api::DecodedCluster> decoded = schedkit::api::Decode(text, "fuzz.yaml");
  if (!decoded.ok()) return 0;
  const std::string again = schedkit::api::EncodeClusterJson(decoded->objects);
  if (!schedkit::api::Decode(again, "fuzz.json").ok()) std::abort();  // what we wrote, we read
  return 0;
}
