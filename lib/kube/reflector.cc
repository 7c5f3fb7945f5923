#include "kube/reflector.h"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "kube/log.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

// Percent-encodes a query value (RFC 3986 unreserved characters stay).
std::string QueryEscape(std::string_view value) {
  std::string out;
  for (const char c : value) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out += absl::StrFormat("%%%02X", u);
    }
  }
  return out;
}

std::string ResourceVersionOf(const nlohmann::json& object) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  return meta->value("resourceVersion", "");
}

}  // namespace

std::string ObjectKey(const nlohmann::json& object) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  const std::string ns = meta->value("namespace", "");
  const std::string name = meta->value("name", "");
  return ns.empty() ? name : schedkit::StrCat(ns, "/", name);
}

Reflector::Reflector(const ApiClient& client, ResourceSpec spec, ReflectorHandler& handler,
                     ReflectorOptions options)
    : client_(client),
      spec_(std::move(spec)),
      handler_(handler),
      options_(options),
      backoff_(options.initial_backoff) {}

std::string Reflector::last_resource_version() const {
  std::lock_guard<std::mutex> lock(mu_);
  return resource_version_;
}

void Reflector::SetResourceVersion(std::string rv) {
  std::lock_guard<std::mutex> lock(mu_);
  resource_version_ = std::move(rv);
}

std::string Reflector::Query(bool watch, const std::string& rv, const std::string& continue_token,
                             int64_t timeout) const {
  std::string q = spec_.path;
  char sep = '?';
  auto add = [&](std::string_view key, std::string_view value) {
    q += sep;
    q += key;
    q += '=';
    q += QueryEscape(value);
    sep = '&';
  };
  if (watch) {
    add("watch", "true");
    add("allowWatchBookmarks", "true");
    add("timeoutSeconds", std::to_string(timeout));
  } else {
    add("limit", std::to_string(options_.page_size));
    if (!continue_token.empty()) add("continue", continue_token);
  }
  if (!rv.empty() && continue_token.empty()) add("resourceVersion", rv);
  if (!spec_.field_selector.empty()) add("fieldSelector", spec_.field_selector);
  return q;
}

void Reflector::Backoff(const std::atomic<bool>& stop) {
  // Jittered as client-go's (factor 2, jitter 1.0): somewhere in [d, 2d).
  const absl::Duration wait = backoff_ + absl::Uniform(rng_, 0.0, 1.0) * backoff_;
  backoff_ = std::min(backoff_ * 2, options_.max_backoff);
  const absl::Time until = absl::Now() + wait;
  while (!stop.load() && absl::Now() < until) {
    absl::SleepFor(std::min(until - absl::Now(), absl::Milliseconds(100)));
  }
}

void Reflector::Put(const std::string& key, nlohmann::json object) {
  auto it = store_.find(key);
  if (it == store_.end()) {
    handler_.OnAdd(object);
    store_.emplace(key, std::move(object));
    return;
  }
  nlohmann::json old = std::move(it->second);
  it->second = std::move(object);
  handler_.OnUpdate(old, it->second);
}

absl::Status Reflector::List(const std::atomic<bool>& stop) {
  ++lists_;
  // As client-go: from the watch cache at first ("0"), at the last version
  // seen after a broken watch, and from etcd ("") once that version expired.
  std::string rv;
  if (!relist_consistent_) {
    rv = last_resource_version();
    if (rv.empty()) rv = "0";
  }
  std::map<std::string, nlohmann::json> listed;
  std::string continue_token;
  std::string list_rv;
  // Pages until the server says there are no more (bounded: a server that
  // keeps answering with a continue token past 100,000 pages is broken).
  for (int page = 0; page < 100000; ++page) {
    auto body = client_.Do("GET", Query(false, rv, continue_token, 0), "", "application/json",
                           absl::Seconds(60), &stop);
    if (!body.ok()) {
      // An expired continue token or version: start over from etcd.
      if (HttpStatusOf(body.status()) == 410) relist_consistent_ = true;
      return body.status();
    }
    const nlohmann::json doc = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object() || !doc.contains("items") || !doc["items"].is_array()) {
      return absl::DataLossError(schedkit::StrCat("GET ", client_.config().server, spec_.path,
                                                  ": the reply is not a list"));
    }
    for (const nlohmann::json& item : doc["items"]) {
      const std::string key = ObjectKey(item);
      if (!key.empty()) listed[key] = item;
    }
    const nlohmann::json& meta = doc.contains("metadata") ? doc["metadata"] : nlohmann::json::object();
    list_rv = meta.is_object() ? meta.value("resourceVersion", "") : "";
    continue_token = meta.is_object() ? meta.value("continue", "") : "";
    if (continue_token.empty()) break;
  }
  // Replace the store: gone objects are deleted, moved ones updated.
  for (auto it = store_.begin(); it != store_.end();) {
    if (!listed.contains(it->first)) {
      handler_.OnDelete(it->second);
      it = store_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& [key, object] : listed) {
    auto it = store_.find(key);
    if (it != store_.end() && ResourceVersionOf(it->second) == ResourceVersionOf(object)) continue;
    Put(key, std::move(object));
  }
  relist_consistent_ = false;
  SetResourceVersion(list_rv);
  if (!synced_.exchange(true)) handler_.OnSynced();
  return absl::OkStatus();
}

bool Reflector::ApplyEvent(std::string_view line, WatchEnd& end) {
  nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  const bool is_event = event.is_object() && event.contains("type") && event["type"].is_string() &&
                        event.contains("object") && event["object"].is_object();
  if (!is_event) {
    return false;
  }
  const std::string type = event["type"];
  nlohmann::json& object = event["object"];
  if (type == "ERROR") {
    // A Status; 410 means our version is gone from the watch cache.
    const int code = object.value("code", 0);
    Log(Severity::kWarning, "reflector",
        schedkit::StrCat("watch ", spec_.path, ": ", object.value("message", std::string("error event"))));
    end = code == 410 ? WatchEnd::kRelist : WatchEnd::kFailed;
    if (code == 410) relist_consistent_ = true;
    return true;
  }
  const std::string rv = ResourceVersionOf(object);
  if (type == "BOOKMARK") {
    if (!rv.empty()) SetResourceVersion(rv);
    return true;
  }
  const std::string key = ObjectKey(object);
  if (key.empty()) return false;
  if (type == "ADDED" || type == "MODIFIED") {
    Put(key, std::move(object));
  } else if (type == "DELETED") {
    store_.erase(key);
    handler_.OnDelete(object);
  } else {
    return false;
  }
  if (!rv.empty()) SetResourceVersion(rv);
  return true;
}

Reflector::WatchEnd Reflector::Watch(const std::atomic<bool>& stop) {
  ++watches_;
  const double spread = absl::Uniform(rng_, 1.0, 2.0);
  const int64_t timeout = static_cast<int64_t>(absl::ToDoubleSeconds(options_.min_watch_timeout) * spread);
  WatchEnd end = WatchEnd::kResume;
  std::string pending;
  bool garbage = false;
  absl::Status streamed = client_.Stream(
      Query(true, last_resource_version(), "", timeout), absl::Seconds(timeout + 30), &stop,
      [&](std::string_view data) {
        pending.append(data);
        size_t start = 0;
        for (size_t eol; (eol = pending.find('\n', start)) != std::string::npos; start = eol + 1) {
          const std::string_view line(pending.data() + start, eol - start);
          if (line.empty()) continue;
          if (!ApplyEvent(line, end)) {
            garbage = true;
            return false;
          }
          if (end != WatchEnd::kResume) return false;
          // A watch that delivers events is a healthy one.
          backoff_ = options_.initial_backoff;
        }
        pending.erase(0, start);
        return true;
      });
  if (garbage) {
    Log(Severity::kWarning, "reflector",
        schedkit::StrCat("watch ", spec_.path, ": a reply line is not a watch event; watching again"));
    return WatchEnd::kFailed;
  }
  if (!streamed.ok()) {
    if (HttpStatusOf(streamed) == 410) {
      relist_consistent_ = true;
      return WatchEnd::kRelist;
    }
    if (!stop.load()) Log(Severity::kWarning, "reflector", std::string(streamed.message()));
    return WatchEnd::kFailed;
  }
  return end;
}

void Reflector::Run(const std::atomic<bool>& stop) {
  bool need_list = true;
  while (!stop.load()) {
    if (need_list) {
      absl::Status listed = List(stop);
      if (!listed.ok()) {
        if (stop.load()) return;
        if (HttpStatusOf(listed) == 404) {
          // A kind or version the server does not serve (an API group it
          // lacks, a CRD not installed): as kube-scheduler's informers, no
          // objects, and the scheduler starts all the same; the list is
          // retried quietly at the back-off's pace, and the objects come
          // in if the kind appears.
          if (!not_served_) {
            Log(Severity::kWarning, "reflector",
                schedkit::StrCat(spec_.path, " is not served by the API server: no such objects until it is ",
                                 "(asked again at most every ", absl::FormatDuration(options_.max_backoff), ")"));
          }
          not_served_ = true;
          if (!synced_.exchange(true)) handler_.OnSynced();
        } else {
          Log(Severity::kWarning, "reflector", std::string(listed.message()));
        }
        Backoff(stop);
        continue;
      }
      if (not_served_) {
        Log(Severity::kInfo, "reflector", schedkit::StrCat(spec_.path, " is served now"));
        not_served_ = false;
      }
      backoff_ = options_.initial_backoff;
      need_list = false;
    }
    switch (Watch(stop)) {
      case WatchEnd::kResume:
        break;  // the server ended it (timeout): watch again from where it was
      case WatchEnd::kRelist:
        need_list = true;
        break;
      case WatchEnd::kFailed:
        // Connection refused or broken: watch again from the last version
        // after a pause; the version, if gone, comes back as a 410.
        Backoff(stop);
        break;
    }
  }
}

}  // namespace schedkit::kube::internal
