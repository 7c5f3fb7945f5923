#include "api/json_documents.h"

#include <string>

#include "absl/status/status.h"
#include "schedkit/base/str_cat.h"
#include "yaml-cpp/yaml.h"

namespace schedkit::api::internal {
namespace {

// Deeper nesting than any Kubernetes object has; guards the recursive YAML
// conversion (and yaml-cpp itself) against stack exhaustion on hostile input.
constexpr int kMaxDepth = 64;

bool IsYamlNull(const YAML::Node& node) {
  if (node.Tag() == "!") return false;  // quoted: always a string
  const std::string& s = node.Scalar();
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// yaml-cpp 0.7 accepts a quoted scalar left open at end of input, turning
// the rest of the file into its value; find its closing quote ourselves.
bool QuotedScalarIsClosed(const YAML::Node& node, std::string_view text) {
  const int pos = node.Mark().pos;
  if (pos < 0 || static_cast<size_t>(pos) >= text.size()) return true;
  const char quote = text[pos];
  if (quote != '"' && quote != '\'') return true;  // block scalar or explicit tag
  for (size_t i = pos + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped quote
      } else {
        return true;
      }
    }
  }
  return false;
}

bool IsCoreScalarTag(const std::string& tag) {
  return tag == "tag:yaml.org,2002:null" || tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:int" ||
         tag == "tag:yaml.org,2002:float";
}

absl::StatusOr<nlohmann::json> YamlToJson(const YAML::Node& node, int depth, std::string_view source,
                                          std::string_view text, const YamlScalars& yaml) {
  if (depth > kMaxDepth) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(source, ": nesting deeper than ", kMaxDepth, " levels"));
  }
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nlohmann::json(nullptr);
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!" && !QuotedScalarIsClosed(node, text)) {
        return absl::InvalidArgumentError(schedkit::StrCat(source, ": line ", node.Mark().line + 1, " column ",
                                                           node.Mark().column + 1,
                                                           ": malformed YAML: quoted scalar is never closed"));
      }
      if (yaml.plain && (node.Tag() == "?" || IsCoreScalarTag(node.Tag()))) return yaml.plain(node.Scalar());
      if (IsYamlNull(node)) return nlohmann::json(nullptr);
      return nlohmann::json(node.Scalar());
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const YAML::Node& item : node) {
        auto v = YamlToJson(item, depth + 1, source, text, yaml);
        if (!v.ok()) return v.status();
        out.push_back(*std::move(v));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) {
          return absl::InvalidArgumentError(schedkit::StrCat(
              source, ": line ", kv.first.Mark().line + 1, ": mapping keys must be scalars"));
        }
        const std::string& key = kv.first.Scalar();
        if (yaml.reject_duplicate_keys && out.contains(key)) {
          return absl::InvalidArgumentError(schedkit::StrCat(source, ": line ", kv.first.Mark().line + 1,
                                                             ": duplicate field \"", key, "\""));
        }
        auto v = YamlToJson(kv.second, depth + 1, source, text, yaml);
        if (!v.ok()) return v.status();
        out[key] = *std::move(v);
      }
      return out;
    }
  }
  return nlohmann::json(nullptr);
}

// yaml-cpp recurses while parsing; reject absurd flow nesting before it does.
bool FlowNestingTooDeep(std::string_view text) {
  int depth = 0;
  for (char c : text) {
    if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

// yaml-cpp 0.7 loops forever on a ',' that starts a node in block context
// (",", "- a\n,", "---\n, x"; found by resource_decode_fuzz). No YAML
// document may start a block node with ',' (an indicator, never a plain
// scalar's first character), so such a line is refused before yaml-cpp
// reads it: the line number of the first, or 0. Lines inside flow
// collections and block scalars are left alone.
size_t LineStartingNodeWithComma(std::string_view text) {
  int depth = 0;                   // open flow collections, as FlowNestingTooDeep counts them
  int block_scalar_indent = -1;    // indentation of the line that opened a block scalar
  size_t line_number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    const int indent = static_cast<int>(first);
    if (block_scalar_indent >= 0) {
      if (indent > block_scalar_indent) continue;
      block_scalar_indent = -1;
    }
    if (depth == 0 && line[first] == ',') return line_number;
    for (char c : line) {
      if (c == '[' || c == '{') {
        ++depth;
      } else if ((c == ']' || c == '}') && depth > 0) {
        --depth;
      }
    }
    // "key: |", "- >-", "|2": the lines below, indented deeper, are text.
    std::string_view rest = line.substr(first);
    if (const size_t hash = rest.find(" #"); hash != std::string_view::npos) rest = rest.substr(0, hash);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r')) rest.remove_suffix(1);
    while (!rest.empty() && (rest.back() == '-' || rest.back() == '+' || (rest.back() >= '0' && rest.back() <= '9'))) {
      rest.remove_suffix(1);
    }
    if (depth == 0 && !rest.empty() && (rest.back() == '|' || rest.back() == '>')) block_scalar_indent = indent;
  }
  return 0;
}

absl::StatusOr<std::vector<nlohmann::json>> ParseJson(std::string_view text,
                                                      std::string_view source) {
  std::vector<nlohmann::json> docs;
  try {
    docs.push_back(nlohmann::json::parse(text.begin(), text.end()));
  } catch (const nlohmann::json::parse_error& e) {
    // Translate the byte offset into line and column for humans.
    size_t line = 1, col = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return absl::InvalidArgumentError(schedkit::StrCat(source, ": line ", line, " column ", col,
                                                   ": malformed JSON: ", e.what()));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(schedkit::StrCat(source, ": malformed JSON: ", e.what()));
  }
  return docs;
}

absl::StatusOr<std::vector<nlohmann::json>> ParseYaml(std::string_view text, std::string_view source,
                                                      const YamlScalars& yaml) {
  if (FlowNestingTooDeep(text)) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(source, ": nesting deeper than ", kMaxDepth, " levels"));
  }
  if (const size_t line = LineStartingNodeWithComma(text); line != 0) {
    return absl::InvalidArgumentError(
        schedkit::StrCat(source, ": line ", line, ": malformed YAML: ',' cannot start a node"));
  }
  std::vector<nlohmann::json> docs;
  try {
    const std::string owned(text);
    std::vector<YAML::Node> nodes = YAML::LoadAll(owned);
    for (const YAML::Node& node : nodes) {
      auto doc = YamlToJson(node, 0, source, owned, yaml);
      if (!doc.ok()) return doc.status();
      docs.push_back(*std::move(doc));
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(schedkit::StrCat(source, ": line ", e.mark.line + 1,
                                                   " column ", e.mark.column + 1,
                                                   ": malformed YAML: ", e.msg));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(schedkit::StrCat(source, ": malformed YAML: ", e.what()));
  }
  return docs;
}

}  // namespace

absl::StatusOr<std::vector<nlohmann::json>> ParseDocuments(std::string_view text, std::string_view source,
                                                           const YamlScalars& yaml) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (text[first] == '{' || text[first] == '[')) {
    return ParseJson(text, source);
  }
  return ParseYaml(text, source, yaml);
}

const char* DescribeType(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "a list";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return "an integer";
    case nlohmann::json::value_t::number_float: return "a number";
    default: return "a value";
  }
}

}  // namespace schedkit::api::internal
