package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"softgrasp/physics/scenario"
)

// TestHeadlessAB checks the two-run comparison: B with no real change
// follows A to the bit (distance exactly 0, the runs are deterministic);
// B with K = 1 goes its own way; bad changes are refused naming the key.
func TestHeadlessAB(t *testing.T) {
	ab := func(spec string) (scenario.ABReport, int, string) {
		var out, errOut bytes.Buffer
		code := run([]string{"headless", "-dofs", "300", "-steps", "60", "-omega", "12.566", "-json", "-ab", spec}, &out, &errOut)
		var rep scenario.ABReport
		if code == 0 {
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("-ab %s: %v in %q", spec, err, out.String())
			}
		}
		return rep, code, errOut.String()
	}
	same, code, msg := ab("newton=5")
	if code != 0 || same.Divergence.Steps != 60 || same.Divergence.MaxNodeDistance != 0 {
		t.Fatalf("B identical to A: exit %d (%s), %+v", code, msg, same.Divergence)
	}
	other, code, msg := ab("newton=1,pgs=30")
	if code != 0 || other.B.Newton != 1 || other.A.Newton != 5 || !(other.Divergence.MaxNodeDistance > 0) {
		t.Fatalf("B with K = 1: exit %d (%s), A K=%d, B K=%d, %+v", code, msg, other.A.Newton, other.B.Newton, other.Divergence)
	}
	for spec, want := range map[string]string{"dt=0.02": "unknown key", "newton": "key=value", "newton=0": "NewtonIterations", "scheme=slow": "scheme"} {
		if _, code, msg := ab(spec); code != 2 || !strings.Contains(msg, want) {
			t.Errorf("-ab %s: exit %d, %q; want 2 and %q", spec, code, msg, want)
		}
	}
}
