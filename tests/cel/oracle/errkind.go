package main

import (
	"regexp"
	"strings"
)

// errorRule maps an error message to a kind. Rules are tried in order; the
// first match wins. A rule matches when the message starts with Prefix (if
// set) and contains Contain (if set).
type errorRule struct {
	Kind    string
	Prefix  string // match if the message starts with Prefix
	Contain string // match if the message contains Contain
}

func (r errorRule) matches(msg string) bool {
	return strings.HasPrefix(msg, r.Prefix) && strings.Contains(msg, r.Contain)
}

// runtimeErrorRules classifies the error returned by DeviceMatches (or by
// Program.Eval in "value" mode). The messages are those of cel-go v0.29.2,
// k8s.io/apiserver/pkg/cel{,/library} v0.37.2, blang/semver v4,
// k8s.io/apimachinery resource.Quantity, net/netip, net/url, regexp and
// k8s.io/dynamic-resource-allocation/cel v0.37.2.
//
// Keep this table in sync with README.md.
var runtimeErrorRules = []errorRule{
	// DeviceMatches input conversion: a device attribute that does not
	// convert (e.g. a version that is not strict semver). The expression is
	// not evaluated then, and no cost is reported.
	{Kind: "invalid_device", Prefix: "attribute "},

	// Cost / cancellation.
	{Kind: "cost_limit", Prefix: "operation cancelled: actual cost limit exceeded"},
	{Kind: "cost_limit", Contain: "actual cost limit exceeded"},
	{Kind: "interrupted", Contain: "operation interrupted"},

	// Lookups.
	{Kind: "no_such_key", Prefix: "no such key"},
	{Kind: "no_such_attribute", Prefix: "no such attribute"},
	{Kind: "no_such_field", Prefix: "no such field"},
	{Kind: "index_out_of_range", Prefix: "index out of range"},
	{Kind: "index_out_of_range", Prefix: "index out of bounds"},
	{Kind: "index_out_of_range", Prefix: "index ", Contain: " out of range"}, // string.format argument index
	{Kind: "index_out_of_range", Contain: "out of range: "},
	{Kind: "optional_none", Prefix: "optional.none() dereference"},
	{Kind: "invalid_index", Prefix: "unsupported index"},
	{Kind: "invalid_index", Prefix: "invalid qualifier type"},
	{Kind: "not_iterable", Prefix: "unsupported comprehension range type"},
	{Kind: "not_iterable", Contain: "expected iterable type"},
	{Kind: "not_comparable", Prefix: "list elements must be comparable"},
	{Kind: "undefined_type", Prefix: "reference to undefined type"},

	// Panics inside cel-go / library code, recovered by the interpreter
	// (e.g. sortBy with an erroring key, map literal with a Semver key).
	{Kind: "internal", Prefix: "internal error:"},

	// Dispatch / typing at runtime.
	{Kind: "no_such_overload", Prefix: "no such overload"},
	{Kind: "no_such_overload", Prefix: "no matching overload"},
	{Kind: "no_such_overload", Prefix: "found no matching overload"},
	{Kind: "result_not_bool", Prefix: "CEL result of type"},

	// Arithmetic.
	{Kind: "division_by_zero", Prefix: "division by zero"},
	{Kind: "modulus_by_zero", Prefix: "modulus by zero"},
	{Kind: "overflow", Prefix: "integer overflow"},
	{Kind: "overflow", Prefix: "unsigned integer overflow"},
	{Kind: "overflow", Prefix: "duration overflow"},
	{Kind: "overflow", Prefix: "timestamp overflow"},
	{Kind: "overflow", Contain: "overflow"},
	{Kind: "range", Prefix: "range error"},
	{Kind: "range", Contain: "out of range"},
	{Kind: "nan_compare", Prefix: "NaN values cannot be ordered"},

	// Conversions.
	{Kind: "type_conversion", Prefix: "type conversion error"},
	{Kind: "type_conversion", Prefix: "unsupported type conversion"},
	{Kind: "type_conversion", Prefix: "strconv."},
	{Kind: "invalid_duration", Prefix: "time: "},
	{Kind: "invalid_timestamp", Prefix: "parsing time "},
	{Kind: "invalid_timestamp", Prefix: "invalid timestamp"},
	{Kind: "invalid_timezone", Prefix: "unknown time zone"},
	{Kind: "invalid_timezone", Contain: "timezone"},
	{Kind: "invalid_utf8", Contain: "invalid UTF-8"},
	{Kind: "invalid_utf8", Contain: "invalid utf-8"},

	// Strings / regex / format.
	{Kind: "bad_regex", Prefix: "error parsing regexp"},
	{Kind: "bad_regex", Contain: "error parsing regexp"},
	{Kind: "invalid_argument", Prefix: "invalid substring range"},
	{Kind: "invalid_argument", Prefix: "invalid replacement string"},
	{Kind: "invalid_argument", Prefix: "replacement string references group"},
	{Kind: "format_error", Prefix: "error during formatting"},
	{Kind: "format_error", Prefix: "unrecognized formatting clause"},
	{Kind: "format_error", Contain: "formatting clause"},
	{Kind: "format_error", Prefix: "could not find end of precision specifier"},
	{Kind: "format_error", Prefix: "no formatting function"},

	// Kubernetes library types.
	{Kind: "invalid_quantity", Contain: "quantities must match the regular expression"},
	{Kind: "invalid_quantity", Contain: "unable to parse quantity"},
	{Kind: "invalid_semver", Contain: "semver"},
	{Kind: "invalid_semver", Contain: "Version string empty"},
	{Kind: "invalid_semver", Contain: "No Major.Minor.Patch elements found"},
	{Kind: "invalid_semver", Contain: "Invalid character(s) found in"},
	{Kind: "invalid_semver", Contain: "Leading zeroes"},
	{Kind: "invalid_semver", Contain: "leading zeroes"},
	{Kind: "invalid_semver", Contain: "Major number"},
	{Kind: "invalid_semver", Contain: "short version cannot contain"},
	{Kind: "invalid_semver", Contain: "Minor number"},
	{Kind: "invalid_semver", Contain: "Patch number"},
	{Kind: "invalid_ip", Contain: "IP Address"},
	{Kind: "invalid_ip", Contain: "IP address"},
	{Kind: "invalid_ip", Contain: "IPv4-mapped IPv6 address"},
	{Kind: "invalid_cidr", Contain: "network address parse error"},
	{Kind: "invalid_cidr", Contain: "CIDR"},
	{Kind: "invalid_url", Contain: "URL parse error"},
	{Kind: "invalid_url", Contain: "URL"},

	// Lists / sets / maps.
	{Kind: "invalid_argument", Prefix: "cannot slice("},
	{Kind: "empty_list", Contain: "called on empty list"},
	{Kind: "range", Prefix: "cannot convert value to integer"},
	{Kind: "invalid_argument", Prefix: "lists.range:"},
	{Kind: "invalid_argument", Contain: "argument must not be empty"},
	{Kind: "invalid_argument", Contain: "cannot be empty"},
	{Kind: "invalid_argument", Prefix: "level must be non-negative"},
	{Kind: "invalid_argument", Contain: "negative"},
	{Kind: "duplicate_key", Contain: "repeated key"},
	{Kind: "duplicate_key", Contain: "already exists"},
}

// compileErrorRules classify the first issue of a failed compilation (the
// text after "ERROR: <input>:L:C: "), or the whole detail when the failure
// is not a parser/checker issue (output type check).
var compileErrorRules = []errorRule{
	{Kind: "syntax", Prefix: "Syntax error"},
	{Kind: "syntax", Prefix: "unsupported syntax"},
	{Kind: "syntax", Prefix: "reserved identifier"},
	{Kind: "syntax", Prefix: "unable to unescape string"},
	{Kind: "syntax", Contain: "invalid int literal"},
	{Kind: "syntax", Contain: "invalid uint literal"},
	{Kind: "syntax", Contain: "invalid double literal"},
	{Kind: "syntax", Contain: "exceeded max recursion depth"},
	{Kind: "syntax", Contain: "expression recursion limit exceeded"},
	{Kind: "macro", Prefix: "invalid argument to has() macro"},
	{Kind: "macro", Contain: "argument must be a simple name"},
	{Kind: "macro", Contain: "argument is not an identifier"},
	{Kind: "macro", Contain: "can only be applied to"},
	{Kind: "macro", Contain: "macro"},
	{Kind: "undeclared_reference", Prefix: "undeclared reference"},
	{Kind: "no_matching_overload", Prefix: "found no matching overload"},
	{Kind: "undefined_field", Prefix: "undefined field"},
	{Kind: "type_mismatch", Prefix: "expected type"},
	{Kind: "type_mismatch", Prefix: "type '"},
	{Kind: "type_mismatch", Contain: "does not support field selection"},
	{Kind: "type_mismatch", Contain: "expression of type"},
	{Kind: "literal_validation", Prefix: "invalid duration argument"},
	{Kind: "literal_validation", Prefix: "invalid timestamp argument"},
	{Kind: "literal_validation", Prefix: "invalid matches argument"},
	{Kind: "literal_validation", Contain: "invalid "},
	{Kind: "result_type", Prefix: "must evaluate to"},
	{Kind: "format_error", Prefix: "could not parse formatting clause"},
	{Kind: "format_error", Prefix: "index ", Contain: " out of range"}, // string.format argument index
	{Kind: "format_error", Prefix: "error during formatting"},
	{Kind: "checker_internal", Prefix: "unexpected failed resolution"},
}

var issuePrefix = regexp.MustCompile(`^(compilation failed: )?ERROR: <input>:\d+:\d+: `)

// classify returns the kind for msg, or "other".
func classify(rules []errorRule, msg string) string {
	for _, r := range rules {
		if r.matches(msg) {
			return r.Kind
		}
	}
	return "other"
}

func classifyRuntime(msg string) string { return classify(runtimeErrorRules, msg) }

// classifyCompile strips the "compilation failed: ERROR: <input>:L:C: "
// envelope and classifies the first issue.
func classifyCompile(detail string) string {
	// Constant folding at program planning (cel.OptOptimize) evaluates
	// type conversions of constants, constant list/map literals and
	// constant regex patterns; their runtime errors surface here.
	if rest, ok := strings.CutPrefix(detail, "program instantiation failed: "); ok {
		return "instantiation:" + classifyRuntime(rest)
	}
	first := detail
	if loc := issuePrefix.FindStringIndex(first); loc != nil {
		first = first[loc[1]:]
	}
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	return classify(compileErrorRules, first)
}

// kindsMarkdown renders both rule tables as Markdown (README.md embeds this
// output between the "error-kinds" markers; a test keeps them in sync).
func kindsMarkdown() string {
	var b strings.Builder
	row := func(r errorRule) {
		match := ""
		switch {
		case r.Prefix != "" && r.Contain != "":
			match = "starts with `" + r.Prefix + "` and contains `" + r.Contain + "`"
		case r.Prefix != "":
			match = "starts with `" + r.Prefix + "`"
		default:
			match = "contains `" + r.Contain + "`"
		}
		b.WriteString("| `" + r.Kind + "` | " + strings.ReplaceAll(match, "|", `\|`) + " |\n")
	}
	b.WriteString("Runtime errors (`eval_error_kind`), first match wins, otherwise `other`:\n\n")
	b.WriteString("| kind | message |\n|---|---|\n")
	for _, r := range runtimeErrorRules {
		row(r)
	}
	b.WriteString("\nCompile errors (`compile_error_kind`), matched against the first issue after `ERROR: <input>:L:C: `, first match wins, otherwise `other`.\n")
	b.WriteString("A detail starting with `program instantiation failed: ` is `instantiation:<runtime kind>` (constant folding, see above).\n\n")
	b.WriteString("| kind | message |\n|---|---|\n")
	for _, r := range compileErrorRules {
		row(r)
	}
	return b.String()
}
