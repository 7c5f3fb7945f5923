// sample-scheduler: kube-scheduler with sample-plugin in its registry.
#include "sample_plugin.h"
#include "schedkit/kube/scheduler_main.h"
#include "schedkit/plugins/in_tree.h"

int main(int argc, char** argv) {
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  if (!registry.Add(std::string(sample::kName), &sample::New).ok()) return 1;
  return schedkit::kube::SchedulerMain(argc, argv, registry);
}
