package toolguard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// procPID matches /proc/<pid>/: a path through /proc/self names the process
// that judged the call, which differs between the C++ command and this test.
var procPID = regexp.MustCompile(`/proc/[0-9]+/`)

// normalized replaces the judging process's pid in a reason.
func normalized(reason string) string { return procPID.ReplaceAllString(reason, "/proc/PID/") }

// corpusCase is one line of the corpus (bindings/corpus/make_corpus.py).
type corpusCase struct {
	Name     string          `json:"name"`
	Call     json.RawMessage `json:"call"`
	Expected struct {
		Verdict     Verdict `json:"verdict"`
		Rule        *string `json:"rule"`
		Reason      string  `json:"reason"`
		ModelReason string  `json:"model_reason"`
	} `json:"expected"`
}

// TestCorpus judges every call of the shell corpus through the binding (as a
// Call value, so the Go types carry every field) and compares with what the
// C++ engine said; every mismatch is reported by name.
func TestCorpus(t *testing.T) {
	path := os.Getenv("TOOLGUARD_CORPUS")
	if path == "" {
		if os.Getenv("TOOLGUARD_GO_REQUIRE_CORPUS") != "" {
			t.Fatal("TOOLGUARD_CORPUS is not set")
		}
		t.Skip("TOOLGUARD_CORPUS is not set (ctest sets it)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, builtinOptions(t))
	scanner := bufio.NewScanner(bytes.NewReader(data))
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	cases, mismatches, verdictOnly := 0, 0, 0
	for scanner.Scan() {
		var c corpusCase
		if err := json.Unmarshal(scanner.Bytes(), &c); err != nil {
			t.Fatalf("corpus line %d: %v", cases+1, err)
		}
		cases++
		// Numbers stay as written (json.Number), so the call is the same call.
		var call Call
		if err := decodeNumbers(c.Call, &call); err != nil {
			t.Errorf("%s: the call does not fit Call: %v", c.Name, err)
			mismatches++
			continue
		}
		// Call must carry every field of the call.
		var original, carried any
		encoded, err := appendCallJSON(nil, &call)
		if err == nil {
			err = decodeNumbers(encoded, &carried)
		}
		if decodeNumbers(c.Call, &original); err != nil || !reflect.DeepEqual(original, carried) {
			t.Errorf("%s: Call does not carry the call: %s became %s (%v)", c.Name, c.Call, encoded, err)
			mismatches++
			continue
		}
		d, err := g.Check(context.Background(), call)
		if err != nil {
			t.Errorf("%s: Check: %v", c.Name, err)
			mismatches++
			continue
		}
		rule := ""
		if c.Expected.Rule != nil {
			rule = *c.Expected.Rule
		}
		if strings.Contains(normalized(c.Expected.Reason), "/proc/PID/fd/") {
			// The call reads one of the judging process's own descriptors
			// (/dev/stdin): what it is (the command's pipe, this test's
			// stdin) decides the rule and reason, so only the verdict is compared.
			if d.Verdict != c.Expected.Verdict {
				t.Errorf("%s: got %s; want %s", c.Name, d.Verdict, c.Expected.Verdict)
				mismatches++
			} else {
				t.Logf("%s: reads the judging process's own descriptors: verdict compared only", c.Name)
				verdictOnly++
			}
			continue
		}
		if d.Verdict != c.Expected.Verdict || d.Rule != rule ||
			normalized(d.Reason) != normalized(c.Expected.Reason) ||
			normalized(d.ModelReason) != normalized(c.Expected.ModelReason) {
			t.Errorf("%s: got %s rule %q reason %q model_reason %q; want %s rule %q reason %q model_reason %q",
				c.Name, d.Verdict, d.Rule, d.Reason, d.ModelReason,
				c.Expected.Verdict, rule, c.Expected.Reason, c.Expected.ModelReason)
			mismatches++
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if cases == 0 {
		t.Fatal("the corpus is empty")
	}
	t.Logf("%d corpus calls, %d mismatches, %d compared by verdict only", cases, mismatches, verdictOnly)
}

// decodeNumbers decodes JSON keeping numbers as written (json.Number).
func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}
