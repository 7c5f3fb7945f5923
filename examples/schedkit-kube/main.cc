// schedkit-kube: kube-scheduler with schedkit's in-tree plugins. An
// out-of-tree build is the same with registry.Add for its own plugins.
#include "schedkit/kube/scheduler_main.h"
#include "schedkit/plugins/in_tree.h"

int main(int argc, char** argv) {
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  return schedkit::kube::SchedulerMain(argc, argv, registry);
}
