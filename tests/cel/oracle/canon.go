package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Canonical JSON form of a CEL value, used by "value" mode.
//
//	{"type": "bool",   "value": true}
//	{"type": "int",    "value": -3}               (JSON integer, exact int64)
//	{"type": "uint",   "value": 3}                (JSON integer, exact uint64)
//	{"type": "double", "value": "1.5"}            (strconv.FormatFloat(f, 'g', -1, 64); "NaN", "+Inf", "-Inf")
//	{"type": "string", "value": "x"}
//	{"type": "bytes",  "value": "<base64>"}       (standard encoding, padded)
//	{"type": "null"}
//	{"type": "duration",  "value": "1.5s"}        (CEL string(duration))
//	{"type": "timestamp", "value": "2023-01-02T03:04:05Z"}  (CEL string(timestamp), RFC 3339 nano, UTC)
//	{"type": "list", "value": [<canon>, ...]}
//	{"type": "map",  "value": [{"key": <canon>, "value": <canon>}, ...]}  (sorted by the JSON text of the key)
//	{"type": "optional", "value": <canon>} / {"type": "optional"} for optional.none()
//	{"type": "type", "value": "<type name>"}     (e.g. "int", "list", "kubernetes.Quantity")
//	{"type": "kubernetes.Quantity", "value": "<Quantity.String()>"}
//	{"type": "kubernetes.Semver",   "value": "<Version.String()>"}
//	{"type": "net.IP",              "value": "<netip.Addr.String()>"}
//	{"type": "net.CIDR",            "value": "<netip.Prefix.String()>"}
//	{"type": "kubernetes.URL",      "value": "<url.URL.String()>"}
//	{"type": "kubernetes.NamedFormat", "value": "<format name>"}
//	{"type": "<other type name>",   "value": "<fmt %v>"}   (anything else; should not occur)
type Canon struct {
	Type  string `json:"type"`
	Value any    `json:"value,omitempty"`
}

type canonEntry struct {
	Key   Canon `json:"key"`
	Value Canon `json:"value"`
}

// canonValue converts a CEL value into its canonical form. Values that are
// errors come back as an error.
func canonValue(v ref.Val) (Canon, error) {
	if types.IsError(v) {
		return Canon{}, v.(*types.Err)
	}
	if types.IsUnknown(v) {
		return Canon{}, fmt.Errorf("unknown value")
	}
	switch x := v.(type) {
	case types.Bool:
		return Canon{"bool", bool(x)}, nil
	case types.Int:
		return Canon{"int", json.Number(strconv.FormatInt(int64(x), 10))}, nil
	case types.Uint:
		return Canon{"uint", json.Number(strconv.FormatUint(uint64(x), 10))}, nil
	case types.Double:
		return Canon{"double", strconv.FormatFloat(float64(x), 'g', -1, 64)}, nil
	case types.String:
		return Canon{"string", string(x)}, nil
	case types.Bytes:
		return Canon{"bytes", base64.StdEncoding.EncodeToString([]byte(x))}, nil
	case types.Null:
		return Canon{Type: "null"}, nil
	case types.Duration:
		return Canon{"duration", string(x.ConvertToType(types.StringType).(types.String))}, nil
	case types.Timestamp:
		return Canon{"timestamp", x.Time.UTC().Format(time.RFC3339Nano)}, nil
	case *types.Optional:
		if !x.HasValue() {
			return Canon{Type: "optional"}, nil
		}
		inner, err := canonValue(x.GetValue())
		if err != nil {
			return Canon{}, err
		}
		return Canon{"optional", inner}, nil
	case ref.Type:
		return Canon{"type", x.TypeName()}, nil
	case apiservercel.Quantity:
		return Canon{x.Type().TypeName(), x.Quantity.String()}, nil
	case apiservercel.Semver:
		return Canon{x.Type().TypeName(), x.Version.String()}, nil
	case apiservercel.IP:
		return Canon{x.Type().TypeName(), x.Addr.String()}, nil
	case apiservercel.CIDR:
		return Canon{x.Type().TypeName(), x.Prefix.String()}, nil
	case apiservercel.URL:
		return Canon{x.Type().TypeName(), x.URL.String()}, nil
	case apiservercel.Format:
		return Canon{x.Type().TypeName(), x.Name}, nil
	}
	if m, ok := v.(traits.Mapper); ok {
		var entries []canonEntry
		it := m.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			kc, err := canonValue(k)
			if err != nil {
				return Canon{}, err
			}
			vv, found := m.Find(k)
			if !found {
				return Canon{}, fmt.Errorf("map key vanished during iteration")
			}
			vc, err := canonValue(vv)
			if err != nil {
				return Canon{}, err
			}
			entries = append(entries, canonEntry{kc, vc})
		}
		keyText := func(c Canon) string { b, _ := json.Marshal(c); return string(b) }
		sort.Slice(entries, func(i, j int) bool { return keyText(entries[i].Key) < keyText(entries[j].Key) })
		if entries == nil {
			entries = []canonEntry{}
		}
		return Canon{"map", entries}, nil
	}
	if l, ok := v.(traits.Lister); ok {
		n, ok := l.Size().(types.Int)
		if !ok {
			return Canon{}, fmt.Errorf("list size is not an int")
		}
		out := make([]Canon, 0, int(n))
		for i := types.Int(0); i < n; i++ {
			c, err := canonValue(l.Get(i))
			if err != nil {
				return Canon{}, err
			}
			out = append(out, c)
		}
		return Canon{"list", out}, nil
	}
	return Canon{v.Type().TypeName(), fmt.Sprintf("%v", v.Value())}, nil
}
