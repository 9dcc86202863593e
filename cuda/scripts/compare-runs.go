//go:build ignore

// compare-runs compares two `softgrasp headless -json -lambda` reports, a
// run on the CPU backend and one on the GPU backend, and exits non-zero
// when any result differs by more than the relative tolerance: the
// contacts, penetrations, slips, grip force, the held flag and every
// component of the last step's λ (relative to the largest |λ|). The
// timings are not compared.
//
//	go run cuda/scripts/compare-runs.go [-tol 1e-9] cpu.json gpu.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
)

type report struct {
	Steps            int       `json:"steps"`
	ContactsMean     float64   `json:"contacts_mean"`
	MaxPenetration   float64   `json:"max_penetration"`
	FinalPenetration float64   `json:"final_penetration"`
	Slip             float64   `json:"slip"`
	MaxSlip          float64   `json:"max_slip"`
	GripForceMean    float64   `json:"grip_force_mean"`
	NewtonMean       float64   `json:"newton_mean"`
	Held             bool      `json:"held"`
	Error            string    `json:"error"`
	Lambda           []float64 `json:"lambda"`
}

func load(path string) (report, error) {
	var r report
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}

// rel is |a − b| relative to scale (absolute below a scale of 1e-300).
func rel(a, b, scale float64) float64 {
	return math.Abs(a-b) / math.Max(scale, 1e-300)
}

func main() {
	tol := flag.Float64("tol", 1e-9, "largest relative difference accepted")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: compare-runs [-tol t] cpu.json gpu.json")
		os.Exit(2)
	}
	a, err := load(flag.Arg(0))
	if err == nil {
		var b report
		if b, err = load(flag.Arg(1)); err == nil {
			os.Exit(compare(a, b, *tol))
		}
	}
	fmt.Fprintln(os.Stderr, "compare-runs:", err)
	os.Exit(2)
}

func compare(a, b report, tol float64) int {
	bad := 0
	check := func(name string, x, y float64) {
		d := rel(x, y, math.Max(math.Abs(x), math.Abs(y)))
		if x == y {
			d = 0
		}
		status := "ok"
		if d > tol || math.IsNaN(d) {
			status, bad = "DIFFERS", bad+1
		}
		fmt.Printf("%-18s %-24.17g %-24.17g rel %.3g  %s\n", name, x, y, d, status)
	}
	if a.Error != "" || b.Error != "" || a.Steps != b.Steps || a.Held != b.Held {
		fmt.Printf("runs differ: steps %d/%d, held %v/%v, errors %q/%q\n", a.Steps, b.Steps, a.Held, b.Held, a.Error, b.Error)
		bad++
	}
	check("contacts_mean", a.ContactsMean, b.ContactsMean)
	check("newton_mean", a.NewtonMean, b.NewtonMean)
	check("max_penetration", a.MaxPenetration, b.MaxPenetration)
	check("final_penetration", a.FinalPenetration, b.FinalPenetration)
	check("slip", a.Slip, b.Slip)
	check("max_slip", a.MaxSlip, b.MaxSlip)
	check("grip_force_mean", a.GripForceMean, b.GripForceMean)
	if len(a.Lambda) != len(b.Lambda) || len(a.Lambda) == 0 {
		fmt.Printf("lambda: %d and %d components (want equal and > 0)\n", len(a.Lambda), len(b.Lambda))
		bad++
	} else {
		scale, worst := 0.0, 0.0
		for _, x := range a.Lambda {
			scale = math.Max(scale, math.Abs(x))
		}
		for i := range a.Lambda {
			worst = math.Max(worst, rel(a.Lambda[i], b.Lambda[i], scale))
		}
		status := "ok"
		if worst > tol || math.IsNaN(worst) {
			status, bad = "DIFFERS", bad+1
		}
		fmt.Printf("%-18s %d contacts, max |λ| %.6g, largest difference rel %.3g  %s\n", "lambda", len(a.Lambda)/3, scale, worst, status)
	}
	if bad > 0 {
		fmt.Printf("%d differences above %g\n", bad, tol)
		return 1
	}
	fmt.Printf("the two runs agree to %g\n", tol)
	return 0
}
