#!/usr/bin/env python3
"""Writes demo_cluster.yaml, the cluster schedkit-sim uses without --cluster.

20 nodes in 3 zones (taints, labels, images), running pods, and ~100 pending
pods of several kinds: plain, node affinity, anti-affinity, topology spread,
tolerations, high-priority pods that must preempt, one that fits nowhere;
and storage: a StatefulSet whose three replicas (made by schedkit-sim from its
template) get claims that a WaitForFirstConsumer class provisions in their zones.
Deterministic: rerunning gives the same file. Run: python3 make_demo_cluster.py
"""
import random

random.seed(7)
docs = []

def doc(lines):
    docs.append("\n".join(lines))

doc(["apiVersion: scheduling.k8s.io/v1", "kind: PriorityClass", "metadata:", "  name: critical", "value: 100000",
     "description: Pods that may preempt batch work."])
doc(["apiVersion: scheduling.k8s.io/v1", "kind: PriorityClass", "metadata:", "  name: batch", "value: 10",
     "description: Preemptible batch work."])
doc(["apiVersion: v1", "kind: Namespace", "metadata:", "  name: shop", "  labels:", "    team: storefront"])
doc(["apiVersion: v1", "kind: Namespace", "metadata:", "  name: batch", "  labels:", "    team: data"])

zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
nodes = []
for i in range(20):
    zone = zones[i % 3]
    name = f"node-{i:02d}"
    kind = "gpu" if i in (18, 19) else ("big" if i % 5 == 0 else "std")
    cpu, mem = {"gpu": ("16", "64Gi"), "big": ("16", "64Gi"), "std": ("8", "32Gi")}[kind]
    lines = ["apiVersion: v1", "kind: Node", "metadata:", f"  name: {name}", "  labels:",
             f"    kubernetes.io/hostname: {name}", f"    topology.kubernetes.io/zone: {zone}",
             "    topology.kubernetes.io/region: eu-west-1", f"    node.example.com/class: {kind}",
             f"    disktype: {'ssd' if i % 2 == 0 else 'hdd'}", "spec:"]
    taints = []
    if kind == "gpu":
        taints.append(("nvidia.com/gpu", "present", "NoSchedule"))
    if i == 7:
        taints.append(("maintenance", "planned", "PreferNoSchedule"))
    if taints:
        lines.append("  taints:")
        for k, v, e in taints:
            lines += [f"  - key: {k}", f"    value: {v}", f"    effect: {e}"]
    else:
        lines.append("  taints: []")
    lines += ["status:", "  capacity:", f"    cpu: \"{cpu}\"", f"    memory: {mem}", "    pods: \"110\""]
    lines += ["  allocatable:", f"    cpu: \"{cpu}\"", f"    memory: {mem}", "    pods: \"110\""]
    if kind == "gpu":
        lines.append("    nvidia.com/gpu: \"4\"")
    lines.append("  images:")
    if i % 2 == 0:
        lines += ["  - names: [\"registry.example.com/shop/web:1.8\"]", "    sizeBytes: 312000000"]
    if i % 3 == 0:
        lines += ["  - names: [\"registry.example.com/batch/etl:4.2\"]", "    sizeBytes: 890000000"]
    lines += ["  - names: [\"registry.k8s.io/pause:3.9\"]", "    sizeBytes: 750000"]
    doc(lines)
    nodes.append((name, zone, kind))

# The controllers that own the pods (and a Service): PodTopologySpread's
# default constraints spread their pods as upstream does.
CONTROLLERS = {
    ("shop", "web"): ("apps/v1", "ReplicaSet", "web-7c9d4b", {"app": "web", "pod-template-hash": "7c9d4b"}),
    ("shop", "api"): ("apps/v1", "ReplicaSet", "api-5f6b8d", {"app": "api", "pod-template-hash": "5f6b8d"}),
    ("shop", "db"): ("apps/v1", "StatefulSet", "db", {"app": "db"}),
    ("shop", "zk"): ("apps/v1", "StatefulSet", "zk", {"app": "zk"}),
    ("shop", "cache"): ("apps/v1", "StatefulSet", "cache", {"app": "cache"}),
    ("batch", "etl"): ("v1", "ReplicationController", "etl", {"app": "etl"}),
}

def workload(ns, app):
    api, kind, name, labels = CONTROLLERS[(ns, app)]
    lines = [f"apiVersion: {api}", f"kind: {kind}", "metadata:", f"  name: {name}", f"  namespace: {ns}",
             f"  uid: uid-{ns}-{name}", "spec:"]
    if kind == "ReplicationController":
        lines += ["  selector:"] + [f"    {k}: {v}" for k, v in labels.items()]
    else:
        lines += ["  selector:", "    matchLabels:"] + [f"      {k}: {v}" for k, v in labels.items()]
    if kind == "StatefulSet":
        lines.append(f"  serviceName: {app}")
    doc(lines)

for ns, app in CONTROLLERS:
    workload(ns, app)
doc(["apiVersion: v1", "kind: Service", "metadata:", "  name: web", "  namespace: shop", "spec:",
     "  selector:", "    app: web", "  ports:", "  - port: 80"])

def pod(name, ns, labels, cpu, mem, node=None, extra=None, priority_class=None, image="registry.k8s.io/pause:3.9",
        gpu=None, claims=None):
    owner = CONTROLLERS.get((ns, labels.get("app")))
    if owner:
        labels = dict(owner[3])
    lines = ["apiVersion: v1", "kind: Pod", "metadata:", f"  name: {name}", f"  namespace: {ns}", "  labels:"]
    lines += [f"    {k}: {v}" for k, v in labels.items()]
    if owner:
        api, kind, oname, _ = owner
        lines += ["  ownerReferences:", f"  - apiVersion: {api}", f"    kind: {kind}", f"    name: {oname}",
                  f"    uid: uid-{ns}-{oname}", "    controller: true"]
    lines += ["spec:"]
    if node:
        lines.append(f"  nodeName: {node}")
    if priority_class:
        lines.append(f"  priorityClassName: {priority_class}")
    lines += ["  containers:", "  - name: main", f"    image: {image}", "    resources:", "      requests:",
              f"        cpu: {cpu}", f"        memory: {mem}"]
    if gpu:
        lines.append(f"        nvidia.com/gpu: \"{gpu}\"")
    if claims:
        lines.append("      claims:")
        lines += [f"      - name: {c}" for c, _, _ in claims]
        lines.append("  resourceClaims:")
        for c, field, value in claims:
            lines += [f"  - name: {c}", f"    {field}: {value}"]
    if extra:
        lines += extra
    if node:
        lines += ["status:", "  phase: Running", "  startTime: \"2026-11-01T10:00:00Z\""]
    else:
        lines += ["status:", "  phase: Pending"]
    doc(lines)

# Running batch work: fills several nodes so high-priority pods must preempt.
for i in range(30):
    n = nodes[i % 12][0]
    pod(f"etl-{i:02d}", "batch", {"app": "etl"}, "1500m", "4Gi", node=n, priority_class="batch",
        image="registry.example.com/batch/etl:4.2")
# Long-running batch jobs fill the big nodes; checkout pods can only land there by preempting them.
for i, n in enumerate([0, 5, 10, 15]):
    pod(f"warehouse-{i}", "batch", {"app": "warehouse"}, "9", "30Gi", node=nodes[n][0], priority_class="batch",
        image="registry.example.com/batch/etl:4.2")
for i in range(8):
    pod(f"cache-{i}", "shop", {"app": "cache"}, "500m", "2Gi", node=nodes[12 + i % 6][0])

pending = 0
def pending_pod(*args, **kw):
    global pending
    pending += 1
    pod(*args, **kw)

# Plain web pods, which their ReplicaSet's default spreading spreads.
for i in range(40):
    pending_pod(f"web-{i:02d}", "shop", {"app": "web"}, random.choice(["250m", "500m"]),
                random.choice(["512Mi", "1Gi", "2Gi"]), image="registry.example.com/shop/web:1.8")
# Node affinity: SSD nodes only.
for i in range(10):
    pending_pod(f"db-{i}", "shop", {"app": "db"}, "1", "4Gi", extra=[
        "  affinity:", "    nodeAffinity:", "      requiredDuringSchedulingIgnoredDuringExecution:",
        "        nodeSelectorTerms:", "        - matchExpressions:", "          - key: disktype",
        "            operator: In", "            values: [ssd]"])
# Anti-affinity: one per host.
for i in range(8):
    pending_pod(f"zk-{i}", "shop", {"app": "zk"}, "500m", "1Gi", extra=[
        "  affinity:", "    podAntiAffinity:", "      requiredDuringSchedulingIgnoredDuringExecution:",
        "      - labelSelector:", "          matchLabels: {app: zk}", "        topologyKey: kubernetes.io/hostname"])
# Spread across zones.
for i in range(15):
    pending_pod(f"api-{i:02d}", "shop", {"app": "api"}, "500m", "1Gi", extra=[
        "  topologySpreadConstraints:", "  - maxSkew: 1", "    topologyKey: topology.kubernetes.io/zone",
        "    whenUnsatisfiable: DoNotSchedule", "    labelSelector:", "      matchLabels: {app: api}"])
# GPU training: needs the toleration.
for i in range(6):
    pending_pod(f"train-{i}", "batch", {"app": "train"}, "2", "8Gi", gpu="1", extra=[
        "  tolerations:", "  - key: nvidia.com/gpu", "    operator: Exists", "    effect: NoSchedule"])
# Batch ETL that only fits after the others, big requests.
for i in range(16):
    pending_pod(f"report-{i:02d}", "batch", {"app": "report"}, "2", "6Gi", priority_class="batch",
                image="registry.example.com/batch/etl:4.2")
# High priority: must preempt batch work.
for i in range(4):
    pending_pod(f"checkout-{i}", "shop", {"app": "checkout"}, "10", "40Gi", priority_class="critical")
# Fits nowhere.
pending_pod("giant", "batch", {"app": "giant"}, "64", "512Gi")

# Storage: CSI nodes, a WaitForFirstConsumer class, and a StatefulSet with a
# claim template and no pods yet: schedkit-sim makes its three replicas and
# their claims, and each claim is provisioned in its pod's zone.
for name, zone, kind in nodes:
    doc(["apiVersion: storage.k8s.io/v1", "kind: CSINode", "metadata:", f"  name: {name}", "spec:", "  drivers:",
         "  - name: pd.csi.storage.gke.io", f"    nodeID: {name}", "    topologyKeys: [topology.kubernetes.io/zone]"])
doc(["apiVersion: storage.k8s.io/v1", "kind: StorageClass", "metadata:", "  name: standard-rwo", "  annotations:",
     '    storageclass.kubernetes.io/is-default-class: "true"', "provisioner: pd.csi.storage.gke.io",
     "volumeBindingMode: WaitForFirstConsumer"])
doc(["apiVersion: apps/v1", "kind: StatefulSet", "metadata:", "  name: orders-db", "  namespace: shop", "spec:",
     "  serviceName: orders-db", "  replicas: 3", "  selector:", "    matchLabels: {app: orders-db}", "  template:",
     "    metadata:", "      labels: {app: orders-db}", "    spec:", "      containers:", "      - name: postgres",
     "        image: postgres:16", "        resources:", "          requests: {cpu: '1', memory: 4Gi}",
     "  volumeClaimTemplates:", "  - metadata:", "      name: data", "    spec:", "      accessModes: [ReadWriteOnce]",
     "      resources:", "        requests: {storage: 50Gi}"])
pending += 3

# Dynamic Resource Allocation: the two GPU nodes also publish a DRA pool
# (four GPUs each, two per PCIe root). Fine-tuning pods ask through a claim
# template for two GPUs of one root; an inference service shares one claim.
doc(["apiVersion: resource.k8s.io/v1", "kind: DeviceClass", "metadata:", "  name: gpu.example.com", "spec:",
     "  selectors:", "  - cel:", "      expression: device.driver == 'gpu.example.com'"])
for name, zone, kind in nodes:
    if kind != "gpu":
        continue
    lines = ["apiVersion: resource.k8s.io/v1", "kind: ResourceSlice", "metadata:", f"  name: {name}-gpu.example.com",
             "spec:", "  driver: gpu.example.com", f"  nodeName: {name}", "  pool:", f"    name: {name}",
             "    generation: 1", "    resourceSliceCount: 1", "  devices:"]
    for g in range(4):
        lines += [f"  - name: gpu-{g}", "    attributes:", "      model: {string: a100}",
                  f"      pcieRoot: {{string: pci{g // 2}}}", "    capacity:", "      memory: {value: 80Gi}"]
    doc(lines)
doc(["apiVersion: resource.k8s.io/v1", "kind: ResourceClaimTemplate", "metadata:", "  name: two-gpus-one-root",
     "  namespace: batch", "spec:", "  spec:", "    devices:", "      requests:", "      - name: gpus",
     "        exactly:", "          deviceClassName: gpu.example.com", "          count: 2", "      constraints:",
     "      - requests: [gpus]", "        matchAttribute: gpu.example.com/pcieRoot"])
doc(["apiVersion: resource.k8s.io/v1", "kind: ResourceClaim", "metadata:", "  name: inference-gpu",
     "  namespace: batch", "spec:", "  devices:", "    requests:", "    - name: gpu", "      exactly:",
     "        deviceClassName: gpu.example.com", "        selectors:", "        - cel:",
     "            expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0"])
gpu_toleration = ["  tolerations:", "  - key: nvidia.com/gpu", "    operator: Exists", "    effect: NoSchedule"]
for i in range(3):
    pending_pod(f"finetune-{i}", "batch", {"app": "finetune"}, "1", "4Gi", extra=gpu_toleration,
                claims=[("gpus", "resourceClaimTemplateName", "two-gpus-one-root")])
for i in range(2):
    pending_pod(f"inference-{i}", "batch", {"app": "inference"}, "500m", "2Gi", extra=gpu_toleration,
                claims=[("gpu", "resourceClaimName", "inference-gpu")])

with open("demo_cluster.yaml", "w") as f:
    f.write("# Generated by make_demo_cluster.py: the cluster schedkit-sim simulates by default.\n")
    f.write("\n---\n".join(docs) + "\n")
print(f"{len(nodes)} nodes, {pending} pending pods")
