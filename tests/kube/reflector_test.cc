// The reflector against a scripted API server on 127.0.0.1: paginated lists,
// watch events and bookmarks, resuming a watch where it ended, relisting on
// 410, surviving garbage and failing lists, and stopping promptly.
#include "kube/reflector.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kube/local_http_server.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

json Node(const std::string& name, int rv) {
  return {{"kind", "Node"}, {"metadata", {{"name", name}, {"resourceVersion", std::to_string(rv)}}}};
}

std::string Event(const std::string& type, const json& object) {
  return json{{"type", type}, {"object", object}}.dump() + "\n";
}

// An API server for /api/v1/nodes whose list and watches the test scripts.
class FakeNodes {
 public:
  FakeNodes() {
    local_.routes().Get("/api/v1/nodes", [this](const httplib::Request& req, httplib::Response& res) {
      if (req.get_param_value("watch") == "true") {
        Watch(req, res);
      } else {
        List(req, res);
      }
    });
    local_.Start();
  }

  void SetList(std::vector<json> items, int rv) {
    std::lock_guard<std::mutex> lock(mu_);
    items_ = std::move(items);
    list_rv_ = rv;
  }
  void FailLists(int count) {
    std::lock_guard<std::mutex> lock(mu_);
    failing_lists_ = count;
  }
  // The next `count` lists answer 404: the resource is not served.
  void NotServed(int count) {
    std::lock_guard<std::mutex> lock(mu_);
    unserved_lists_ = count;
  }
  // A line for the open watch (or the next one).
  void Push(std::string line) {
    std::lock_guard<std::mutex> lock(mu_);
    lines_.push_back(std::move(line));
  }
  // Ends the open watch's reply once its lines are written.
  void EndWatch() {
    std::lock_guard<std::mutex> lock(mu_);
    end_watch_ = true;
  }
  std::vector<std::string> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }
  std::string url() const { return local_.url(); }

 private:
  void List(const httplib::Request& req, httplib::Response& res) {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.push_back(absl::StrCat("LIST rv=", req.get_param_value("resourceVersion"),
                                     " continue=", req.get_param_value("continue"),
                                     " limit=", req.get_param_value("limit")));
    if (unserved_lists_ > 0) {
      --unserved_lists_;
      res.status = 404;
      res.set_content(R"({"kind":"Status","reason":"NotFound","message":"the server could not find the requested resource","code":404})",
                      "application/json");
      return;
    }
    if (failing_lists_ > 0) {
      --failing_lists_;
      res.status = 500;
      res.set_content(R"({"kind":"Status","reason":"InternalError","message":"etcd is down","code":500})",
                      "application/json");
      return;
    }
    const size_t limit = std::stoul(req.get_param_value("limit"));
    const std::string token = req.get_param_value("continue");
    const size_t from = token.empty() ? 0 : std::stoul(token);
    json items = json::array();
    for (size_t i = from; i < items_.size() && i < from + limit; ++i) items.push_back(items_[i]);
    json meta = {{"resourceVersion", std::to_string(list_rv_)}};
    if (from + limit < items_.size()) meta["continue"] = std::to_string(from + limit);
    const json list = {{"kind", "NodeList"}, {"metadata", meta}, {"items", items}};
    res.set_content(list.dump(), "application/json");
  }

  void Watch(const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(absl::StrCat("WATCH rv=", req.get_param_value("resourceVersion"),
                                       " bookmarks=", req.get_param_value("allowWatchBookmarks"),
                                       " timeout=", req.get_param_value("timeoutSeconds")));
      end_watch_ = false;
    }
    res.set_chunked_content_provider("application/json", [this](size_t, httplib::DataSink& sink) {
      // At most 10 s per call, so a test that fails does not hang.
      for (int i = 0; i < 1000; ++i) {
        if (sink.is_writable && !sink.is_writable()) return false;
        std::string line;
        {
          std::lock_guard<std::mutex> lock(mu_);
          if (!lines_.empty()) {
            line = std::move(lines_.front());
            lines_.pop_front();
          } else if (end_watch_) {
            sink.done();
            return true;
          }
        }
        if (!line.empty()) return sink.write(line.data(), line.size());
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      sink.done();
      return true;
    });
  }

  mutable std::mutex mu_;
  std::vector<json> items_;
  int list_rv_ = 0;
  int failing_lists_ = 0;
  int unserved_lists_ = 0;
  std::deque<std::string> lines_;
  bool end_watch_ = false;
  std::vector<std::string> requests_;
  testing::LocalHttpServer local_;  // last: stopped first
};

// Records what the reflector reports, as "ADD n1@3" lines.
class Recorder : public ReflectorHandler {
 public:
  void OnAdd(const json& o) override { Record("ADD " + Describe(o)); }
  void OnUpdate(const json& old, const json& o) override {
    Record("UPDATE " + Describe(old) + "->" + Describe(o));
  }
  void OnDelete(const json& o) override { Record("DELETE " + Describe(o)); }
  void OnSynced() override { Record("SYNCED"); }
  std::vector<std::string> events() const {
    std::lock_guard<std::mutex> lock(mu_);
    return events_;
  }
  // Waits (up to 10 s) until `n` events were recorded.
  bool WaitFor(size_t n) const {
    for (int i = 0; i < 1000; ++i) {
      if (events().size() >= n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

 private:
  static std::string Describe(const json& o) {
    const json& meta = o["metadata"];
    return meta["name"].get<std::string>() + "@" + meta["resourceVersion"].get<std::string>();
  }
  void Record(std::string e) {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(e));
  }
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

// Runs a reflector on its own thread for one test.
class Running {
 public:
  Running(FakeNodes& server, Recorder& recorder, ReflectorOptions options = Fast()) {
    ClientConfig config;
    config.server = server.url();
    config.qps = -1;  // no client-side limit in these tests
    auto client = ApiClient::Create(config);
    REQUIRE(client.ok());
    client_ = *std::move(client);
    reflector_ = std::make_unique<Reflector>(*client_, ResourceSpec{"/api/v1/nodes", ""}, recorder, options);
    thread_ = std::thread([this] { reflector_->Run(stop_); });
  }
  ~Running() { Stop(); }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  Reflector& reflector() { return *reflector_; }
  static ReflectorOptions Fast() {
    ReflectorOptions o;
    o.page_size = 2;
    o.initial_backoff = absl::Milliseconds(20);
    o.max_backoff = absl::Milliseconds(100);
    return o;
  }

 private:
  std::unique_ptr<ApiClient> client_;
  std::unique_ptr<Reflector> reflector_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

bool WaitUntil(const std::function<bool()>& done) {
  for (int i = 0; i < 1000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST_CASE("the reflector lists page by page, then applies watch events and bookmarks", "[kube]") {
  FakeNodes server;
  server.SetList({Node("n0", 1), Node("n1", 2), Node("n2", 3), Node("n3", 4), Node("n4", 5)}, 10);
  Recorder recorder;
  Running run(server, recorder);
  REQUIRE(recorder.WaitFor(6));
  CHECK(run.reflector().HasSynced());
  server.Push(Event("ADDED", Node("n5", 11)));
  server.Push(Event("MODIFIED", Node("n1", 12)));
  server.Push(Event("DELETED", Node("n2", 13)));
  server.Push(Event("BOOKMARK", {{"kind", "Node"}, {"metadata", {{"resourceVersion", "20"}}}}));
  REQUIRE(recorder.WaitFor(9));
  REQUIRE(WaitUntil([&] { return run.reflector().last_resource_version() == "20"; }));
  // The server ends the watch (its timeout): the next one starts at the bookmark.
  server.EndWatch();
  // The reflector counts a watch before its request reaches the server: wait
  // for the server to have seen the second one.
  REQUIRE(WaitUntil([&] { return server.requests().size() >= 5; }));
  run.Stop();
  const std::vector<std::string> want = {
      "ADD n0@1", "ADD n1@2",  "ADD n2@3",           "ADD n3@4",     "ADD n4@5",
      "SYNCED",   "ADD n5@11", "UPDATE n1@2->n1@12", "DELETE n2@13",
  };
  CHECK(recorder.events() == want);
  const std::vector<std::string> requests = server.requests();
  REQUIRE(requests.size() >= 5);
  CHECK(requests[0] == "LIST rv=0 continue= limit=2");
  CHECK(requests[1] == "LIST rv= continue=2 limit=2");
  CHECK(requests[2] == "LIST rv= continue=4 limit=2");
  CHECK(requests[3].starts_with("WATCH rv=10 bookmarks=true timeout="));
  const int timeout = std::stoi(requests[3].substr(requests[3].rfind('=') + 1));
  CHECK(timeout >= 300);
  CHECK(timeout < 600);
  CHECK(requests[4].starts_with("WATCH rv=20 bookmarks=true"));
  CHECK(run.reflector().lists() == 1);
}

TEST_CASE("on a 410 the reflector relists from etcd and reports what changed meanwhile", "[kube]") {
  FakeNodes server;
  server.SetList({Node("a", 1), Node("b", 2), Node("c", 3)}, 5);
  Recorder recorder;
  Running run(server, recorder);
  REQUIRE(recorder.WaitFor(4));
  // While away: a changed, c gone, d new; b unchanged.
  server.SetList({Node("a", 7), Node("b", 2), Node("d", 8)}, 9);
  server.Push(Event("ERROR", {{"kind", "Status"}, {"code", 410}, {"reason", "Expired"},
                              {"message", "too old resource version: 5 (8)"}}));
  REQUIRE(recorder.WaitFor(7));
  REQUIRE(WaitUntil([&] { return run.reflector().last_resource_version() == "9"; }));
  run.Stop();
  const std::vector<std::string> events = recorder.events();
  CHECK(std::vector<std::string>(events.begin() + 4, events.end()) ==
        std::vector<std::string>{"DELETE c@3", "UPDATE a@1->a@7", "ADD d@8"});
  const std::vector<std::string> requests = server.requests();
  // The relist reads from etcd: no resourceVersion.
  CHECK(std::find(requests.begin(), requests.end(), "LIST rv= continue= limit=2") != requests.end());
  CHECK(run.reflector().lists() == 2);
}

TEST_CASE("a garbage watch line restarts the watch where it was, without a relist", "[kube]") {
  FakeNodes server;
  server.SetList({Node("a", 1)}, 3);
  Recorder recorder;
  Running run(server, recorder);
  REQUIRE(recorder.WaitFor(2));
  server.Push(Event("ADDED", Node("b", 4)));
  server.Push("this is not json\n");
  REQUIRE(WaitUntil([&] { return run.reflector().watches() >= 2; }));
  // The new watch goes on from b's version (a real server replays from there).
  server.Push(Event("ADDED", Node("c", 5)));
  REQUIRE(recorder.WaitFor(4));
  run.Stop();
  CHECK(recorder.events() == std::vector<std::string>{"ADD a@1", "SYNCED", "ADD b@4", "ADD c@5"});
  const std::vector<std::string> requests = server.requests();
  REQUIRE(requests.size() >= 3);
  CHECK(requests[2].starts_with("WATCH rv=4 "));
  CHECK(run.reflector().lists() == 1);
}

TEST_CASE("a failing list is retried with back-off until it succeeds", "[kube]") {
  FakeNodes server;
  server.SetList({Node("a", 1)}, 2);
  server.FailLists(3);
  Recorder recorder;
  Running run(server, recorder);
  REQUIRE(recorder.WaitFor(2));
  CHECK(run.reflector().HasSynced());
  CHECK(run.reflector().lists() == 4);
}

// kube-scheduler starts on a server that lacks a kind it watches (an API
// group turned off, a CRD an out-of-tree plugin reads not installed yet).
TEST_CASE("a kind the server does not serve counts as synced and empty, and comes in once served", "[kube]") {
  FakeNodes server;
  server.SetList({Node("a", 1)}, 2);
  server.NotServed(3);
  Recorder recorder;
  Running run(server, recorder);
  // Synced, and empty, at the first 404.
  REQUIRE(recorder.WaitFor(1));
  CHECK(recorder.events()[0] == "SYNCED");
  CHECK(run.reflector().HasSynced());
  // Asked again at the back-off's pace; the objects arrive when it is served.
  REQUIRE(recorder.WaitFor(2));
  CHECK(recorder.events() == std::vector<std::string>{"SYNCED", "ADD a@1"});
  CHECK(run.reflector().lists() == 4);
}

TEST_CASE("the reflector stops within a second or so while a watch is open", "[kube]") {
  FakeNodes server;
  server.SetList({}, 1);
  Recorder recorder;
  ReflectorOptions options = Running::Fast();
  Running run(server, recorder, options);
  REQUIRE(recorder.WaitFor(1));
  REQUIRE(WaitUntil([&] { return run.reflector().watches() >= 1; }));
  const auto begin = std::chrono::steady_clock::now();
  run.Stop();
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(3));
}

}  // namespace
}  // namespace schedkit::kube::internal
