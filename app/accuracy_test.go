package main

import (
	"bytes"
	"flag"
	"math"
	"strings"
	"testing"

	"softgrasp/physics/accuracy"
)

// TestAccuracyFlags checks the grid the flags select and the refusals of
// bad values, which name the flag.
func TestAccuracyFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	for _, tc := range []struct {
		args []string
		want string // in the one-line error, "" for none
	}{
		{[]string{"-dt", "0.0125", "-ref-dt", "0.005", "-quick"}, "not a whole multiple"},
		{[]string{"-omega", "fast"}, "-omega"},
		{[]string{"-newton", "0"}, "K = 0"},
		{[]string{"-mu", "-1"}, "-mu"},
		{[]string{"-scheme", "slow"}, "-scheme"},
		{[]string{"-ref-scheme", "slow"}, "-ref-scheme"},
		{[]string{"-ref-elastic-tol", "-1"}, "Newton on the whole residual"},
		{[]string{"-elastic-tol", "NaN"}, "Newton on the whole residual"},
		{[]string{"-alarm-fall-margin", "2"}, "-alarm-fall-margin: AlarmFallMargin = 2 is out of range"},
		{[]string{"-pgs", "0"}, "-pgs: PGSIterations = 0"},
		{[]string{"-alarm-fall", "sideways"}, "-alarm-fall"},
		{[]string{"-alarm-fall-margin", "NaN"}, "-alarm-fall-margin: AlarmFallMargin = NaN"},
	} {
		out.Reset()
		errOut.Reset()
		code := run(append([]string{"accuracy"}, tc.args...), &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
	// The margin reaches the scene of the reference and of every row;
	// left out, the scene keeps its default.
	for _, tc := range []struct {
		args []string
		want float64
	}{
		{[]string{"-quick", "-alarm-fall-margin", "1"}, 1},
		{[]string{"-quick"}, accuracy.Quick().Base().Physics.AlarmFallMargin},
	} {
		var f accuracyFlags
		fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
		f.register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		set := map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		o, err := f.options(set)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := o.Base().Physics.AlarmFallMargin; got != tc.want {
			t.Errorf("%v: the scene's alarm fall margin is %g, want %g", tc.args, got, tc.want)
		}
	}
	w, err := parseFloats("2π, 4pi,3.5")
	if err != nil || math.Abs(w[0]-2*math.Pi) > 1e-15 || math.Abs(w[1]-4*math.Pi) > 1e-15 || w[2] != 3.5 {
		t.Fatalf("parseFloats: %v, %v", w, err)
	}
}

// TestAccuracyOutputs writes the table, the CSV, the JSON and the plot of
// a made-up result with a failed row (NaN slip error, every run of one ω
// failed): no output may choke on it.
func TestAccuracyOutputs(t *testing.T) {
	res := accuracy.Result{Reference: accuracy.Reference{DT: 0.001, Slip: map[string]float64{"8π": 1e-3}}}
	for _, k := range []int{1, 5} {
		res.Rows = append(res.Rows, accuracy.Row{Scheme: "fast", Newton: k, PGS: 30, Kind: "grid", DT: 0.02,
			Omega: 8 * math.Pi, SpinPenetration: 1e-4 / float64(k), SlipError: 1e-4 * float64(k)})
	}
	res.Rows = append(res.Rows, accuracy.Row{Scheme: "fast", Newton: 1, PGS: 150, Kind: "equal-work", DT: 0.02,
		Omega: 8 * math.Pi, SlipError: math.NaN(), Error: "simulation diverged"})
	res.Rows = append(res.Rows, accuracy.Row{Scheme: "fast", Newton: 1, PGS: 30, Kind: "grid", DT: 0.02,
		Omega: 2 * math.Pi, SlipError: math.NaN(), Error: "simulation diverged"})
	res.Spin = []accuracy.SpinRow{{Omega: 8 * math.Pi, DT: 0.02, Newton: 5, MaxError: 0.12, EndError: 0.11},
		{Omega: 8 * math.Pi, DT: 0.02, Newton: 5, Elastic: 1e-5, MaxError: math.NaN(), EndError: math.NaN(), Error: "spin diverged"}}
	dir := t.TempDir()
	f := accuracyFlags{json: true, csv: dir + "/a.csv", plot: dir + "/a.png"}
	var out bytes.Buffer
	if err := writeAccuracyOutputs(&f, res, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"slip_error": -1`) || !strings.Contains(out.String(), `"max_error": -1`) {
		t.Fatalf("a failed row's NaN is not written as -1: %s", out.String())
	}
	out.Reset()
	writeAccuracyMarkdown(&out, res)
	if !strings.Contains(out.String(), "failed: simulation diverged") || !strings.Contains(out.String(), "failed: spin diverged") ||
		!strings.Contains(out.String(), "| 8π | 20 | 5 | off | 12.000 % | 11.000 % |") {
		t.Fatalf("table does not show the rows and failures:\n%s", out.String())
	}
	if err := saveAccuracyPlot(dir+"/a.svg", res); err == nil {
		t.Fatal("a plot named .svg was accepted")
	}
}
