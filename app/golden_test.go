package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/physics/sparse"
)

var update = flag.Bool("update", false, "rewrite the golden step logs under testdata/ from this build")

// goldenRuns are the headless runs whose step logs are kept under
// testdata/: the default exact grasp, the two validation scenes, and the
// grasp with the standard scheme and with the asynchronous solver (its
// factor swapped in a fixed number of steps after it started, so that the
// run does not depend on the machine's load).
var goldenRuns = []struct {
	name string
	args []string
}{
	{"grasp", []string{"-dofs", "1000", "-steps", "200"}},
	{"incline", []string{"-scenario", "incline", "-dofs", "1000"}},
	{"drop", []string{"-scenario", "drop", "-dofs", "1000"}},
	{"grasp-standard", []string{"-dofs", "1000", "-steps", "200", "-scheme", "standard"}},
	{"grasp-async", []string{"-dofs", "1000", "-steps", "200", "-solver", "async", "-async-lag", "3"}},
}

// TestHeadlessGolden runs each golden run in-process and compares every
// column of its CSV step log but the wall times (the *_ms columns) byte
// for byte with testdata/<name>.csv: a change that is meant to keep the
// behaviour must keep every step's contacts, iterations, penetration,
// slip, force and convergence record exactly. A change that is meant to
// alter the behaviour regenerates the files with -update and says why.
func TestHeadlessGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five scenes")
	}
	if core := sparse.BLASCore(); core != "Haswell" {
		t.Fatalf("the golden logs were recorded with OpenBLAS's Haswell kernels and this process runs %s, whose sums differ in the last digits: run with OPENBLAS_CORETYPE=Haswell, as make test does", core)
	}
	for _, run := range goldenRuns {
		t.Run(run.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "steps.csv")
			code, _, errs := headless(append(run.args, "-csv", path)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := withoutTimings(data)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", run.name+".csv")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("step log differs from %s: %s", golden, firstDifference(got, want))
			}
		})
	}
}

// withoutTimings drops the *_ms columns of a CSV step log.
func withoutTimings(data []byte) ([]byte, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var keep []int
	for i, name := range rows[0] {
		if !strings.HasSuffix(name, "_ms") {
			keep = append(keep, i)
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	for _, r := range rows {
		kept := make([]string, len(keep))
		for j, i := range keep {
			kept[j] = r[i]
		}
		if err := w.Write(kept); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return out.Bytes(), w.Error()
}

// firstDifference names the first line where got and want differ.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}
