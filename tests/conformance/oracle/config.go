package main

// The KubeSchedulerConfiguration: decoded, defaulted and validated exactly as
// kube-scheduler does it (cmd/kube-scheduler/app/options/configfile.go), then,
// when `deterministic`, forced to a shape whose decisions are reproducible.

import (
	"fmt"
	"os"

	"k8s.io/utils/ptr"

	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

func loadConfig(path string, deterministic bool) (*config.KubeSchedulerConfiguration, error) {
	var cfg *config.KubeSchedulerConfiguration
	if path == "" {
		// What scheduler.New does when no profiles are given.
		var versioned configv1.KubeSchedulerConfiguration
		scheme.Scheme.Default(&versioned)
		cfg = &config.KubeSchedulerConfiguration{}
		if err := scheme.Scheme.Convert(&versioned, cfg, nil); err != nil {
			return nil, fmt.Errorf("converting the default configuration: %w", err)
		}
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, badInput("--config %s: %v", path, err)
		}
		// The UniversalDecoder runs defaulting and returns the internal type.
		obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
		if err != nil {
			return nil, badInput("--config %s: %v", path, err)
		}
		c, ok := obj.(*config.KubeSchedulerConfiguration)
		if !ok {
			return nil, badInput("--config %s: couldn't decode as KubeSchedulerConfiguration, got %s", path, gvk)
		}
		c.TypeMeta.APIVersion = gvk.GroupVersion().String()
		cfg = c
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, badInput("--config %s: %v", path, err)
	}
	if len(cfg.Extenders) > 0 {
		return nil, badInput("--config %s: extenders are not supported by the oracle", path)
	}
	if !deterministic {
		return cfg, nil
	}
	// Determinism: score every node and filter with one worker.
	cfg.PercentageOfNodesToScore = ptr.To[int32](100)
	cfg.Parallelism = 1
	for i := range cfg.Profiles {
		cfg.Profiles[i].PercentageOfNodesToScore = ptr.To[int32](100)
	}
	return cfg, nil
}
