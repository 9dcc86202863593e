package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/physics/bench"
)

// benchJSON is the -json contract of softgrasp bench; decoding with
// DisallowUnknownFields holds the keys to exactly these.
type benchJSON struct {
	Scenario string         `json:"scenario"`
	Rows     []benchRowJSON `json:"rows"`
	Ratios   []struct {
		DOFs      int     `json:"dofs"`
		PerNewton float64 `json:"per_newton"`
		Total     float64 `json:"total"`
	} `json:"ratios"`
}

type benchRowJSON struct {
	DOFs        int     `json:"dofs"`
	Constraints float64 `json:"constraints"`
	Method      string  `json:"method"`
	BuildWH     float64 `json:"build_wh"`
	RebuildW    float64 `json:"rebuild_w"`
	PGS         float64 `json:"pgs"`
	Corr        float64 `json:"corr"`
	Elastic     float64 `json:"elastic"`
	NewtonIter  float64 `json:"newton_iter"`
	Total       float64 `json:"total"`
	UpdatePct   float64 `json:"update_pct"`
}

// benchNewton is K of the bench protocol.
const benchNewton = 5

// TestBenchQuickJSON runs the quick bench in process at two tiny sizes for
// two measured steps, with every output, and checks the shape of the JSON
// object and the invariants that hold whatever the timings: one standard
// and one fast row per size seeing the same constraints, no W_H in the
// standard scheme, Total = Build W_H + K·Newton ite. (with two steps the
// median is the mean, which is linear), update shares within [0, 100] and
// ratios computed from the rows.
func TestBenchQuickJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bench scene at two sizes")
	}
	dir := t.TempDir()
	csvPath, plotPath := filepath.Join(dir, "table.csv"), filepath.Join(dir, "table.png")
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "-quick", "-sizes", "600,1200", "-steps", "2", "-json",
		"-csv", csvPath, "-plot", plotPath}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit code %d, stderr: %s", code, stderr.String())
	}
	rep := decodeOneObject(t, stdout.Bytes())
	if len(rep.Rows) != 4 || len(rep.Ratios) != 2 {
		t.Fatalf("%d rows and %d ratios, want 4 and 2", len(rep.Rows), len(rep.Ratios))
	}
	for k, q := range rep.Ratios {
		std, fast := rep.Rows[2*k], rep.Rows[2*k+1]
		if std.Method != "standard" || fast.Method != "fast" || std.DOFs != q.DOFs || fast.DOFs != q.DOFs {
			t.Fatalf("size %d: rows (%s, %d DOFs) and (%s, %d DOFs) for a ratio at %d DOFs",
				k, std.Method, std.DOFs, fast.Method, fast.DOFs, q.DOFs)
		}
		if std.Constraints <= 0 || std.Constraints != fast.Constraints {
			t.Fatalf("%d DOFs: %g constraints in the standard steps, %g in the fast ones", q.DOFs, std.Constraints, fast.Constraints)
		}
		if std.BuildWH != 0 || !(fast.BuildWH > 0) {
			t.Fatalf("%d DOFs: build_wh standard %g (want 0), fast %g (want > 0)", q.DOFs, std.BuildWH, fast.BuildWH)
		}
		for _, r := range []benchRowJSON{std, fast} {
			if want := r.BuildWH + benchNewton*r.NewtonIter; math.Abs(r.Total-want) > 1e-9*want {
				t.Fatalf("%d DOFs %s: total %.9g ms, build_wh + %d·newton_iter = %.9g ms", q.DOFs, r.Method, r.Total, benchNewton, want)
			}
			if r.UpdatePct < 0 || r.UpdatePct > 100 {
				t.Fatalf("%d DOFs %s: update_pct = %g, want within [0, 100]", q.DOFs, r.Method, r.UpdatePct)
			}
		}
		if want := std.NewtonIter / fast.NewtonIter; math.Abs(q.PerNewton-want) > 1e-12*want {
			t.Fatalf("%d DOFs: per_newton ratio %g, rows give %g", q.DOFs, q.PerNewton, want)
		}
		if want := std.Total / fast.Total; math.Abs(q.Total-want) > 1e-12*want {
			t.Fatalf("%d DOFs: total ratio %g, rows give %g", q.DOFs, q.Total, want)
		}
	}
	checkBenchCSV(t, csvPath, len(rep.Rows))
	checkBenchPlot(t, plotPath)
}

// TestBenchStack runs the Table-1 protocol on the stack scene (two soft
// bodies in soft–soft contact) at one small size: both schemes measured,
// with the contacts of the squeezed stack.
func TestBenchStack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the stack scene to its squeeze")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-scenario", "stack", "-sizes", "600", "-steps", "1", "-json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d, stderr: %s", code, stderr.String())
	}
	rep := decodeOneObject(t, stdout.Bytes())
	if rep.Scenario != "stack" || len(rep.Rows) != 2 || len(rep.Ratios) != 1 || !(rep.Rows[0].Constraints > 0) {
		t.Fatalf("scenario %q, %d rows, %d ratios: want stack, 2 and 1 with contacts", rep.Scenario, len(rep.Rows), len(rep.Ratios))
	}
	t.Logf("%d DOFs, %g constraints, standard/fast per Newton iteration %.2f×", rep.Ratios[0].DOFs, rep.Rows[0].Constraints, rep.Ratios[0].PerNewton)
}

// decodeOneObject decodes stdout as exactly one JSON object of the bench
// contract, with nothing but white space after it.
func decodeOneObject(t *testing.T, out []byte) benchJSON {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var rep benchJSON
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("stdout is not the bench JSON object: %v\n%s", err, out)
	}
	if rest := strings.TrimSpace(string(out[dec.InputOffset():])); rest != "" {
		t.Fatalf("stdout holds more than one JSON object: %q after it", rest)
	}
	return rep
}

// checkBenchCSV reads the CSV file: a header and one record per row, all
// of the header's width.
func checkBenchCSV(t *testing.T, path string, rows int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("-csv file: %v", err)
	}
	if len(recs) != rows+1 || recs[0][0] != "dofs" || recs[0][2] != "method" {
		t.Fatalf("-csv file has %d records starting with %v, want a header and %d rows", len(recs), recs[0], rows)
	}
}

// checkBenchPlot decodes the PNG plot.
func checkBenchPlot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("-plot file: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 200 {
		t.Fatalf("-plot image is %v, too small to read", b)
	}
}

// TestBenchBadFlags checks that every bad command line is one line on
// stderr and exit code 2, and -h prints the column definitions.
func TestBenchBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-steps", "0"}, {"-sizes", "18000,abc"}, {"-sizes", "10"}, {"-warmup", "-3"},
		{"-threads", "-1"}, {"-nope"}, {"extra"}, {"-scenario", "drop"}, {"-scenario", "stack", "-mesh", "x.stl"},
		{"-compliance-precision", "half"}, {"-scale", "-compliance-precision", "half"}, {"-compliance-threads", "3"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"bench"}, args...), &stdout, &stderr)
			msg := stderr.String()
			if code != 2 || strings.Count(msg, "\n") != 1 || stdout.Len() != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q: want 2, nothing and one line", code, stdout.String(), msg)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "Update       (Rebuild W + Corr.)") {
		t.Fatalf("-h: exit %d, output %q: want 0 and the column definitions", code, stdout.String())
	}
}

// TestBenchScale runs bench -scale on two small sizes at two time steps:
// one JSON object with a row per size and step (the spin measured, every
// stage timed) and each stage's growth exponent per step; the CSV has a
// row per size and step, the plot is a PNG; a bad list is one line.
func TestBenchScale(t *testing.T) {
	dir := t.TempDir()
	csvPath, plotPath := filepath.Join(dir, "scale.csv"), filepath.Join(dir, "scale.png")
	var out, errb bytes.Buffer
	code := runBench([]string{"-scale", "-scale-sizes", "300,600", "-scale-dts", "0.01,0.02", "-json", "-csv", csvPath, "-plot", plotPath}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, &errb)
	}
	var rep bench.ScaleReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 4 || len(rep.Exponents) != 2 || rep.CompliancePrecision != "double" {
		t.Fatalf("%d rows, exponents for %d steps, compliance in %q; want 4, 2 and double", len(rep.Rows), len(rep.Exponents), rep.CompliancePrecision)
	}
	for _, r := range rep.Rows {
		if r.Error != "" || r.Steps == 0 || r.RealtimeFactor <= 0 || r.Contacts <= 0 || r.MS["step"] <= 0 || r.MS["newton_iter"] <= 0 {
			t.Fatalf("row %+v", r)
		}
	}
	for dt, e := range rep.Exponents {
		if _, ok := e["step"]; !ok {
			t.Fatalf("h = %s: no exponent of the step (%v)", dt, e)
		}
	}
	data, err := os.ReadFile(csvPath)
	if err != nil || strings.Count(string(data), "\n") != 5 {
		t.Fatalf("CSV: %v\n%s", err, data)
	}
	if png, err := os.ReadFile(plotPath); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("plot: %v", err)
	}
	errb.Reset()
	if code := runBench([]string{"-scale", "-scale-dts", "0.01,x"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "-scale-dts") {
		t.Fatalf("a bad -scale-dts: exit %d, %q", code, &errb)
	}
}
