package main

import (
	"fmt"
	"strings"
	"sync"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	resourceapi "k8s.io/api/resource/v1"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"

	// Registers the kube feature gates (and their v1.37.2 defaults) in
	// utilfeature.DefaultMutableFeatureGate.
	_ "k8s.io/kubernetes/pkg/features"
)

// DeviceJSON is the "device" object of an input line. Attributes and
// capacity use the JSON shape of resource.k8s.io/v1 Device.attributes and
// Device.capacity, so that e.g. {"int": 5}, {"version": "1.2.3"} and
// {"value": "16Gi"} are decoded by the API types themselves.
type DeviceJSON struct {
	Driver                   string                                                    `json:"driver"`
	AllowMultipleAllocations *bool                                                     `json:"allowMultipleAllocations,omitempty"`
	Attributes               map[resourceapi.QualifiedName]resourceapi.DeviceAttribute `json:"attributes,omitempty"`
	Capacity                 map[resourceapi.QualifiedName]resourceapi.DeviceCapacity  `json:"capacity,omitempty"`
}

// Input is one line read by "eval" and "value" and written by "gen".
type Input struct {
	ID         int64      `json:"id"`
	Expression string     `json:"expression"`
	Device     DeviceJSON `json:"device"`
}

func (d DeviceJSON) toDRA() dracel.Device {
	return dracel.Device{
		Driver:                   d.Driver,
		AllowMultipleAllocations: d.AllowMultipleAllocations,
		Attributes:               d.Attributes,
		Capacity:                 d.Capacity,
	}
}

// setFeatureGates applies a --feature-gates style string ("A=true,B=false")
// to the kube feature gate registry.
func setFeatureGates(s string) error {
	if s == "" {
		return nil
	}
	return utilfeature.DefaultMutableFeatureGate.Set(s)
}

// schedulerCELFeatures returns the cel.Features exactly as the scheduler's
// DynamicResources plugin computes them (pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go, New()), from the process' kube
// feature gates. With the v1.37.2 defaults this is
// {EnableConsumableCapacity: true, EnableListTypeAttributes: false}.
func schedulerCELFeatures() dracel.Features {
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	return dracel.Features{
		EnableConsumableCapacity: fts.EnableDRAConsumableCapacity,
		EnableListTypeAttributes: fts.EnableDRAListTypeAttributes,
	}
}

// oracle bundles the scheduler's CEL cache and the environment it compiles in.
type oracle struct {
	features dracel.Features
	cache    *dracel.Cache
	env      *cel.Env
	emptyMap ref.Val
}

var (
	oracleOnce sync.Once
	theOracle  *oracle
	oracleErr  error
)

// getOracle builds the oracle once per process (feature gates must be set
// before the first call).
func getOracle() (*oracle, error) {
	oracleOnce.Do(func() {
		f := schedulerCELFeatures()
		o := &oracle{
			features: f,
			// Same constructor and size as the scheduler plugin.
			cache: dracel.NewCache(10, f),
		}
		// The environment is only reachable through a compilation result.
		r := dracel.GetCompiler(f).CompileCELExpression("true", dracel.Options{DisableCostEstimation: true})
		if r.Error != nil {
			oracleErr = fmt.Errorf("compiling probe expression: %v", r.Error)
			return
		}
		o.env = r.Environment
		o.emptyMap = o.env.CELTypeAdapter().NativeToValue(map[string]any{})
		theOracle = o
	})
	return theOracle, oracleErr
}

// ---------------------------------------------------------------------------
// Activation for "value" mode.
//
// DeviceMatches builds its variables internally and only returns a bool, so
// "value" mode rebuilds the same activation here. This follows the behaviour
// of dynamic-resource-allocation/cel.CompilationResult.DeviceMatches in
// v0.37.2:
//   - attribute names without "/" use the driver name as domain;
//   - list forms win over scalar forms (IntValues, BoolValues, StringValues,
//     VersionValues, then IntValue, BoolValue, StringValue, VersionValue);
//   - versions are parsed with blang/semver (strict) into apiservercel.Semver;
//   - capacity values become apiservercel.Quantity;
//   - device.attributes and device.capacity return an empty map for an
//     unknown domain instead of failing;
//   - allowMultipleAllocations defaults to false.

func splitQualifiedName(name resourceapi.QualifiedName, driver string) (string, string) {
	s := string(name)
	if i := strings.Index(s, "/"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return driver, s
}

func attributeNative(a resourceapi.DeviceAttribute) (any, error) {
	parse := func(s string) (apiservercel.Semver, error) {
		v, err := semver.Parse(s)
		if err != nil {
			return apiservercel.Semver{}, fmt.Errorf("parse semantic version: %w", err)
		}
		return apiservercel.Semver{Version: v}, nil
	}
	switch {
	case a.IntValues != nil:
		return a.IntValues, nil
	case a.BoolValues != nil:
		return a.BoolValues, nil
	case a.StringValues != nil:
		return a.StringValues, nil
	case a.VersionValues != nil:
		out := make([]apiservercel.Semver, 0, len(a.VersionValues))
		for _, s := range a.VersionValues {
			v, err := parse(s)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case a.IntValue != nil:
		return *a.IntValue, nil
	case a.BoolValue != nil:
		return *a.BoolValue, nil
	case a.StringValue != nil:
		return *a.StringValue, nil
	case a.VersionValue != nil:
		return parse(*a.VersionValue)
	}
	return nil, fmt.Errorf("unsupported attribute value")
}

type defaultingMap struct {
	traits.Mapper
	def ref.Val
}

func (m defaultingMap) Find(key ref.Val) (ref.Val, bool) {
	if v, ok := m.Mapper.Find(key); ok {
		return v, true
	}
	return m.def, true
}

func (o *oracle) activation(d DeviceJSON) (map[string]any, error) {
	attrs := map[string]any{}
	for name, a := range d.Attributes {
		v, err := attributeNative(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		dom, id := splitQualifiedName(name, d.Driver)
		m, _ := attrs[dom].(map[string]any)
		if m == nil {
			m = map[string]any{}
			attrs[dom] = m
		}
		m[id] = v
	}
	capacity := map[string]any{}
	for name, c := range d.Capacity {
		dom, id := splitQualifiedName(name, d.Driver)
		m, _ := capacity[dom].(map[string]apiservercel.Quantity)
		if m == nil {
			m = map[string]apiservercel.Quantity{}
			capacity[dom] = m
		}
		q := c.Value
		m[id] = apiservercel.Quantity{Quantity: &q}
	}
	adapter := o.env.CELTypeAdapter()
	multi := false
	if d.AllowMultipleAllocations != nil {
		multi = *d.AllowMultipleAllocations
	}
	return map[string]any{
		"device": map[string]any{
			"driver":                   d.Driver,
			"allowMultipleAllocations": multi,
			"attributes":               defaultingMap{types.NewStringInterfaceMap(adapter, attrs), o.emptyMap},
			"capacity":                 defaultingMap{types.NewStringInterfaceMap(adapter, capacity), o.emptyMap},
		},
	}, nil
}

// programFor compiles expr in the scheduler's environment without the
// bool-result restriction and plans it with the same program options as
// CompileCELExpression.
func (o *oracle) programFor(expr string) (*cel.Ast, cel.Program, error) {
	ast, iss := o.env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, nil, fmt.Errorf("compilation failed: %s", iss.String())
	}
	prg, err := o.env.Program(ast,
		cel.CostLimit(resourceapi.CELSelectorExpressionMaxCost),
		cel.InterruptCheckFrequency(celconfig.CheckFrequency),
	)
	if err != nil {
		return ast, nil, fmt.Errorf("program instantiation failed: %w", err)
	}
	return ast, prg, nil
}
