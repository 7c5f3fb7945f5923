package main

import (
	"encoding/json"
	"fmt"
	"os"

	v1 "k8s.io/api/core/v1"
	fw "k8s.io/kubernetes/pkg/scheduler/framework"
)

func load(f string) []v1.Pod {
	var list struct{ Items []v1.Pod `json:"items"` }
	b, _ := os.ReadFile(f)
	if err := json.Unmarshal(b, &list); err != nil || len(list.Items) == 0 {
		var items []v1.Pod
		json.Unmarshal(b, &items)
		return items
	}
	return list.Items
}

func main() {
	for _, f := range os.Args[1:] {
		pods := load(f)
		for i := range pods {
			p := &pods[i]
			pi, _ := fw.NewPodInfo(p)
			r := pi.CalculateResource()
			fmt.Printf("%s/%s %d %d %d %d\n", p.Namespace, p.Name, r.Resource.GetMilliCPU(), r.Resource.GetMemory(), r.Non0CPU, r.Non0Mem)
		}
	}
}
