#!/usr/bin/env python3
"""Writes a large cluster (kubectl List JSON) for timing schedkit-sim.

  python3 make_large_cluster.py 5000 10000 > large.json
  schedkit-sim --cluster large.json --output json > /dev/null

Nodes are upstream's scheduler_perf template (4 cpu, 32Gi, 110 pods) over 3
zones; pending pods are mostly plain (100m/500Mi) with some node affinity,
spreading and anti-affinity, as a busy cluster would have.
"""
import json
import sys

nodes, pods = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (5000, 10000)
items = []
for i in range(nodes):
    items.append({"apiVersion": "v1", "kind": "Node",
                  "metadata": {"name": f"node-{i}", "labels": {
                      "kubernetes.io/hostname": f"node-{i}",
                      "topology.kubernetes.io/zone": f"zone-{i % 3}",
                      "node.example.com/pool": "a" if i % 2 == 0 else "b"}},
                  "status": {"allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"},
                             "capacity": {"cpu": "4", "memory": "32Gi", "pods": "110"}}})
for i in range(pods):
    spec = {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9",
                            "resources": {"requests": {"cpu": "100m", "memory": "500Mi"}}}]}
    labels = {"app": f"app-{i % 50}"}
    kind = i % 10
    if kind == 7:
        spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [
                {"key": "node.example.com/pool", "operator": "In", "values": ["a"]}]}]}}}
    elif kind == 8:
        spec["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                              "whenUnsatisfiable": "DoNotSchedule",
                                              "labelSelector": {"matchLabels": labels}}]
    elif kind == 9:
        spec["affinity"] = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 10, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                                               "labelSelector": {"matchLabels": labels}}}]}}
    items.append({"apiVersion": "v1", "kind": "Pod",
                  "metadata": {"name": f"pod-{i}", "namespace": "default", "uid": f"uid-{i}", "labels": labels},
                  "spec": spec})
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, sys.stdout)
