#include "plugins/dynamicresources/validate_selectors.h"

#include <string>
#include <string_view>
#include <vector>

#include "api/go_format.h"
#include "dra/cel_device.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_claim_template.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

using Selectors = google::protobuf::RepeatedPtrField<api::v1::DeviceSelector>;

// cel-go's issues without their source and caret lines: "ERROR: ..." only.
std::string OneLine(std::string_view detail) {
  std::string out;
  size_t start = 0;
  while (start <= detail.size()) {
    size_t end = detail.find('\n', start);
    if (end == std::string_view::npos) end = detail.size();
    std::string_view line = detail.substr(start, end - start);
    if (!line.starts_with(" |")) schedkit::StrAppend(&out, out.empty() ? "" : " ", line);
    start = end + 1;
  }
  return out;
}

class Checker {
 public:
  explicit Checker(const api::DecodedCluster& cluster) : cluster_(cluster) {}

  absl::Status Check(std::string_view kind, const api::v1::ObjectMeta& meta, const std::string& path,
                     const Selectors& selectors) {
    for (int i = 0; i < selectors.size(); ++i) {
      if (!selectors[i].has_cel()) continue;
      const std::string& expression = selectors[i].cel().expression();
      const dra::CompileResult compiled = dra::CompileSelector(expression);
      if (compiled.error.ok()) continue;
      std::string object = schedkit::StrCat(kind, " ", meta.namespace_().empty() ? "" : meta.namespace_() + "/",
                                            meta.name());
      std::string where = object;
      if (auto it = cluster_.sources.find(object); it != cluster_.sources.end()) {
        where = schedkit::StrCat(it->second, " (", object, ")");
      }
      return absl::InvalidArgumentError(schedkit::StrCat(where, ": ", path, ".selectors[", i,
                                                         "].cel.expression: Invalid value: ", GoQuote(expression),
                                                         ": ", OneLine(std::string_view(compiled.error.message().data(), compiled.error.message().size()))));
    }
    return absl::OkStatus();
  }

  absl::Status Check(std::string_view kind, const api::v1::ObjectMeta& meta, std::string_view prefix,
                     const api::v1::DeviceClaim& devices) {
    for (int r = 0; r < devices.requests_size(); ++r) {
      const api::v1::DeviceRequest& request = devices.requests(r);
      const std::string at = schedkit::StrCat(prefix, "spec.devices.requests[", r, "]");
      if (request.has_exactly()) {
        if (absl::Status s = Check(kind, meta, at + ".exactly", request.exactly().selectors()); !s.ok()) return s;
      }
      for (int f = 0; f < request.first_available_size(); ++f) {
        if (absl::Status s = Check(kind, meta, schedkit::StrCat(at, ".firstAvailable[", f, "]"),
                                   request.first_available(f).selectors());
            !s.ok()) {
          return s;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  const api::DecodedCluster& cluster_;
};

}  // namespace

absl::Status ValidateDeviceSelectors(const api::DecodedCluster& cluster) {
  Checker checker(cluster);
  for (const api::v1::DeviceClass& c : cluster.objects.Of<api::v1::DeviceClass>()) {
    if (absl::Status s = checker.Check("DeviceClass", c.metadata(), "spec", c.spec().selectors()); !s.ok()) return s;
  }
  for (const api::v1::ResourceClaim& c : cluster.objects.Of<api::v1::ResourceClaim>()) {
    if (absl::Status s = checker.Check("ResourceClaim", c.metadata(), "", c.spec().devices()); !s.ok()) return s;
  }
  for (const api::v1::ResourceClaimTemplate& t : cluster.objects.Of<api::v1::ResourceClaimTemplate>()) {
    if (absl::Status s = checker.Check("ResourceClaimTemplate", t.metadata(), "spec.", t.spec().spec().devices());
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace schedkit::plugins
