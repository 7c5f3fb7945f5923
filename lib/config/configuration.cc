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
#include "schedkit/api/status_macros.h"
#include "schedkit/api/str_cat.h"

namespace schedkit::config {
namespace {

// The same rule ParseDocuments uses to tell JSON from YAML.
bool LooksLikeJson(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

absl::Status WithSource(std::string_view source, const absl::Status& status) {
  return absl::Status(status.code(), schedkit::StrCat(source, ": ", status.message()));
}

}  // namespace

absl::StatusOr<SchedulerConfiguration> ParseConfiguration(std::string_view text, std::string_view source) {
  // ParseDocuments reports malformed input (with line and column); a YAML
  // document is then read again with its scalars typed.
  SCHEDKIT_ASSIGN_OR_RETURN(std::vector<nlohmann::json> docs, api::internal::ParseDocuments(text, source));
  size_t non_empty = 0;
  for (const nlohmann::json& doc : docs) non_empty += doc.is_null() ? 0 : 1;
  if (non_empty > 1) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(source, ": expected one ", internal::kKind, " document, found ", non_empty));
  }
  nlohmann::json doc;
  if (LooksLikeJson(text)) {
    for (nlohmann::json& d : docs) {
      if (!d.is_null()) doc = std::move(d);
    }
  } else {
    SCHEDKIT_ASSIGN_OR_RETURN(doc, internal::TypedYamlDocument(text, source));
  }

  absl::StatusOr<SchedulerConfiguration> config = internal::DecodeConfiguration(doc);
  if (!config.ok()) return WithSource(source, config.status());
  if (absl::Status valid = ValidateConfiguration(*config); !valid.ok()) return WithSource(source, valid);
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
