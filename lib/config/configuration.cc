// ParseConfiguration and LoadConfiguration: text → typed document → decoded
// and defaulted configuration → validated, with every error naming the source.

#include "schedkit/config/configuration.h"

#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "api/json_documents.h"
#include "config/decode.h"
#include "config/typed_yaml.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::config {
namespace {

absl::Status WithSource(std::string_view source, const absl::Status& status) {
  return absl::Status(status.code(), schedkit::StrCat(source, ": ", status.message()));
}

}  // namespace

absl::StatusOr<SchedulerConfiguration> ParseConfiguration(std::string_view text, std::string_view source) {
  // YAML scalars typed as kube-scheduler types them; repeated keys rejected.
  SCHEDKIT_ASSIGN_OR_RETURN(
      std::vector<nlohmann::json> docs,
      api::internal::ParseDocuments(text, source, {internal::ResolvePlainScalar, /*reject_duplicate_keys=*/true}));
  size_t non_empty = 0;
  for (const nlohmann::json& doc : docs) non_empty += doc.is_null() ? 0 : 1;
  if (non_empty > 1) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(source, ": expected one ", internal::kKind, " document, found ", non_empty));
  }
  nlohmann::json doc;
  for (nlohmann::json& d : docs) {
    if (!d.is_null()) doc = std::move(d);
  }

  absl::StatusOr<SchedulerConfiguration> config = internal::DecodeConfiguration(doc);
  if (!config.ok()) return WithSource(source, config.status());
  if (absl::Status valid = ValidateConfiguration(*config); !valid.ok()) return WithSource(source, valid);
  // Plugin args are decoded later, by each plugin; their errors name the file too.
  for (framework::Profile& profile : config->profiles) {
    for (auto& [name, args] : profile.plugin_args) {
      if (!args.source().empty()) args.set_source(schedkit::StrCat(source, ": ", args.source()));
    }
  }
  return config;
}

absl::StatusOr<SchedulerConfiguration> LoadConfiguration(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(schedkit::StrCat(path, ": cannot open file"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return absl::DataLossError(schedkit::StrCat(path, ": read error"));
  return ParseConfiguration(text, path);
}

}  // namespace schedkit::config
