#include "plugins/nodevolumelimits/csi_translation.h"

#include <array>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "api/go_format.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::csi_translation {
namespace {

constexpr std::array<InTreePlugin, 7> kInTreePlugins = {{
    {kGCEPDPlugin, kGCEPDDriver, MigratedOn::kCSINode},
    {kAWSEBSPlugin, kAWSEBSDriver, MigratedOn::kCSINode},
    {"kubernetes.io/azure-disk", "disk.csi.azure.com", MigratedOn::kCSINode},
    {"kubernetes.io/cinder", "cinder.csi.openstack.org", MigratedOn::kCSINode},
    {kPortworxPlugin, "pxd.portworx.com", MigratedOn::kCSINode},
    {"kubernetes.io/azure-file", "file.csi.azure.com", MigratedOn::kNever},
    {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com", MigratedOn::kNever},
}};

// --- The subset of Go's net/url.Parse that decides an aws:// ID's path ---

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int HexValue(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }
bool IsAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The ASCII bytes net/url takes unescaped in a host (wider than RFC 3986's
// reg-name: it also admits ':', brackets, '<', '>' and '"'); every byte from
// 0x80 up passes.
bool HostByteOk(unsigned char c) {
  if (c >= 0x80 || IsAlnum(static_cast<char>(c))) return true;
  return std::string_view("-_.~!$&'()*+,;=:[]<>\"").find(static_cast<char>(c)) != std::string_view::npos;
}

enum class Part : uint8_t { kHost, kOther };

// Decodes %XY escapes in one part of the URL. net/url reports a bad escape by
// the (up to) three bytes from its '%'; in a host only non-ASCII bytes (and
// "%25") may be escaped, and ASCII that needs escaping is an invalid
// character.
absl::StatusOr<std::string> Unescape(std::string_view s, Part part) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || !IsHex(s[i + 1]) || !IsHex(s[i + 2])) {
        return absl::InvalidArgumentError(schedkit::StrCat("invalid URL escape ", GoQuote(s.substr(i, 3))));
      }
      if (part == Part::kHost && HexValue(s[i + 1]) < 8 && s.substr(i, 3) != "%25") {
        return absl::InvalidArgumentError(schedkit::StrCat("invalid URL escape ", GoQuote(s.substr(i, 3))));
      }
      out.push_back(static_cast<char>(HexValue(s[i + 1]) << 4 | HexValue(s[i + 2])));
      i += 2;
      continue;
    }
    if (part == Part::kHost && !HostByteOk(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          schedkit::StrCat("invalid character ", GoQuote(std::string_view(&s[i], 1)), " in host name"));
    }
    out.push_back(c);
  }
  return out;
}

// "" or ":" followed by digits.
bool ValidOptionalPort(std::string_view port) {
  if (port.empty()) return true;
  if (port.front() != ':') return false;
  for (char c : port.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

absl::Status CheckHost(std::string_view host) {
  const size_t open = host.rfind('[');
  if (open != std::string_view::npos && open > 0) return absl::InvalidArgumentError("invalid IP-literal");
  auto port_error = [](std::string_view port) {
    return absl::InvalidArgumentError(schedkit::StrCat("invalid port ", GoQuote(port), " after host"));
  };
  if (open == 0) {
    const size_t close = host.rfind(']');
    if (close == std::string_view::npos) return absl::InvalidArgumentError("missing ']' in host");
    // net/url would also require the literal to be an IPv6 address: not checked.
    const std::string_view port = host.substr(close + 1);
    return ValidOptionalPort(port) ? absl::OkStatus() : port_error(port);
  }
  if (const size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    if (!ValidOptionalPort(host.substr(colon))) return port_error(host.substr(colon));
  }
  return Unescape(host, Part::kHost).status();
}

// Userinfo may hold only alphanumerics, the unreserved marks, the
// sub-delimiters, ':', '%' and '@' (any non-ASCII byte fails); the user and
// the password (split at the first ':') must then unescape.
absl::Status CheckUserinfo(std::string_view userinfo) {
  for (char c : userinfo) {
    if (!IsAlnum(c) && std::string_view("-._:~!$&'()*+,;=%@").find(c) == std::string_view::npos) {
      return absl::InvalidArgumentError("net/url: invalid userinfo");
    }
  }
  const size_t colon = userinfo.find(':');
  if (absl::Status st = Unescape(userinfo.substr(0, colon), Part::kOther).status(); !st.ok()) return st;
  if (colon == std::string_view::npos) return absl::OkStatus();
  return Unescape(userinfo.substr(colon + 1), Part::kOther).status();
}

// The decoded path of `url`, which starts "aws://", or the parse error as
// url.Error prints it (`parse "<url>": <reason>`).
absl::StatusOr<std::string> AWSURLPath(std::string_view url) {
  // The fragment goes first; an error in it names the whole URL, any other
  // error the URL without it.
  const size_t hash = url.find('#');
  const std::string_view without_fragment = url.substr(0, hash);
  auto parse_error = [](std::string_view named, const auto& reason) {
    return absl::InvalidArgumentError(schedkit::StrCat("parse ", GoQuote(named), ": ", reason));
  };
  for (char c : without_fragment) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return parse_error(without_fragment, "net/url: invalid control character in URL");
    }
  }
  std::string_view rest = without_fragment.substr(std::string_view("aws://").size());
  rest = rest.substr(0, rest.find('?'));
  const size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  const std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  const size_t at = authority.rfind('@');
  const std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
  if (absl::Status st = CheckHost(host); !st.ok()) return parse_error(without_fragment, st.message());
  if (at != std::string_view::npos) {
    if (absl::Status st = CheckUserinfo(authority.substr(0, at)); !st.ok()) {
      return parse_error(without_fragment, st.message());
    }
  }
  auto decoded = Unescape(path, Part::kOther);
  if (!decoded.ok()) return parse_error(without_fragment, decoded.status().message());
  if (hash != std::string_view::npos) {
    if (absl::Status st = Unescape(url.substr(hash + 1), Part::kOther).status(); !st.ok()) {
      return parse_error(url, st.message());
    }
  }
  return decoded;
}

}  // namespace

const InTreePlugin* FindInTreePlugin(std::string_view name) {
  for (const InTreePlugin& p : kInTreePlugins) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

absl::StatusOr<std::string> EBSVolumeID(std::string_view kubernetes_id) {
  if (!kubernetes_id.starts_with("aws://")) return std::string(kubernetes_id);
  auto path = AWSURLPath(kubernetes_id);
  if (!path.ok()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("Invalid disk name (", kubernetes_id, "): ", path.status().message()));
  }
  std::string_view id = *path;
  while (!id.empty() && id.front() == '/') id.remove_prefix(1);
  while (!id.empty() && id.back() == '/') id.remove_suffix(1);
  if (!id.starts_with("vol-") || id.find('/') != std::string_view::npos) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("Invalid format for AWS volume (", kubernetes_id, ")"));
  }
  return std::string(id);
}

std::string GCEPDInlineHandle(std::string_view pd_name) {
  return schedkit::StrCat("projects/UNSPECIFIED/zones/UNSPECIFIED/disks/", pd_name);
}

absl::StatusOr<std::string> GCEPDVolumeHandle(const api::v1::PersistentVolume& pv) {
  static const std::string kBetaZone = "failure-domain.beta.kubernetes.io/zone";
  static const std::string kZone = "topology.kubernetes.io/zone";
  const auto& labels = pv.metadata().labels();
  std::string_view zones_label;
  if (auto it = labels.find(kBetaZone); it != labels.end()) zones_label = it->second;
  if (zones_label.empty()) {
    if (auto it = labels.find(kZone); it != labels.end()) zones_label = it->second;
  }
  const std::string_view pd_name = pv.spec().gce_persistent_disk().pd_name();
  if (zones_label.empty()) return GCEPDInlineHandle(pd_name);
  constexpr std::string_view kDelimiter = "__";
  std::vector<std::string_view> zones;
  for (std::string_view rest = zones_label;;) {
    const size_t at = rest.find(kDelimiter);
    zones.push_back(rest.substr(0, at));
    if (at == std::string_view::npos) break;
    rest.remove_prefix(at + kDelimiter.size());
  }
  if (zones.size() == 1) return schedkit::StrCat("projects/UNSPECIFIED/zones/", zones[0], "/disks/", pd_name);
  auto region = GCERegionFromZones(zones);
  if (!region.ok()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("failed to get region from zones: ", region.status().message()));
  }
  return schedkit::StrCat("projects/UNSPECIFIED/regions/", *region, "/disks/", pd_name);
}

absl::StatusOr<std::string> GCERegionFromZones(std::span<const std::string_view> zones) {
  if (zones.empty()) return absl::InvalidArgumentError("no zones specified");
  // Every zone's format is checked before the regions are compared.
  std::string_view region;
  bool one_region = true;
  for (size_t i = 0; i < zones.size(); ++i) {
    const std::string_view zone = zones[i];
    const size_t first = zone.find('-');
    const size_t second = first == std::string_view::npos ? first : zone.find('-', first + 1);
    if (second == std::string_view::npos || zone.find('-', second + 1) != std::string_view::npos) {
      return absl::InvalidArgumentError(schedkit::StrCat(
          "zone in unexpected format, expected: {locale}-{region}-{zone}, got: ", zone));
    }
    const std::string_view this_region = zone.substr(0, second);
    if (i > 0 && this_region != region) one_region = false;
    region = this_region;
  }
  if (!one_region) return absl::InvalidArgumentError("multiple or no regions gotten from zones");
  return std::string(region);
}

}  // namespace schedkit::plugins::csi_translation
