package accuracy

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
)

// TestTrackErrorMatchesTimes checks the slip error's matching of times: a
// coarse track is compared only at its own times, which the reference has
// every other step of, and the largest distance there is the error.
func TestTrackErrorMatchesTimes(t *testing.T) {
	ref := &Track{}
	for i := 0; i <= 20; i++ {
		tm := 1.0 + float64(i)*0.001 // times as a step loop accumulates them
		ref.Times = append(ref.Times, tm)
		ref.COM = append(ref.COM, r3.Vec{X: tm})
	}
	coarse := &Track{}
	for i := 0; i <= 10; i++ {
		tm := 1.0 + float64(i)*0.002
		coarse.Times = append(coarse.Times, tm)
		coarse.COM = append(coarse.COM, r3.Vec{X: tm, Y: 1e-4 * float64(i)})
	}
	coarse.Times = append(coarse.Times, 1.0215) // no reference step there
	coarse.COM = append(coarse.COM, r3.Vec{Y: 1})
	e, n := trackError(coarse, ref)
	if n != 11 || math.Abs(e-1e-3) > 1e-15 {
		t.Fatalf("error %g over %d matched times, want 1e-3 over 11 (time 1.0215 has no reference step)", e, n)
	}
}

// TestGridCases checks the grid's rows: every scheme and K, the equal-work
// K = 1 rows with K times the sweeps, and the converged rows.
func TestGridCases(t *testing.T) {
	o := Quick()
	o.Newtons = []int{1, 2, 5}
	cases := o.Cases()
	var grid, equal, conv int
	for _, c := range cases {
		switch c.Kind {
		case "grid":
			grid++
		case "equal-work":
			equal++
			if c.Newton != 1 || (c.PGS != 2*o.PGS && c.PGS != 5*o.PGS) {
				t.Fatalf("equal-work row K = %d with %d sweeps", c.Newton, c.PGS)
			}
		case "converged":
			conv++
			if c.PGS != o.ConvergedPGS || c.PGSTol != o.ConvergedTol || c.Scheme != settings.Fast {
				t.Fatalf("converged row %+v", c)
			}
		}
	}
	if grid != 2*3 || equal != 2 || conv != 2 {
		t.Fatalf("%d grid, %d equal-work, %d converged rows; want 6, 2, 2", grid, equal, conv)
	}
}

// TestOptionsValidate names what is wrong with a grid.
func TestOptionsValidate(t *testing.T) {
	for name, change := range map[string]func(*Options){
		"h not a multiple of the reference step": func(o *Options) { o.DTs = []float64{0.0125}; o.RefDT = 0.005 },
		"K out of range":                         func(o *Options) { o.Newtons = []int{0} },
		"empty grid":                             func(o *Options) { o.Omegas = nil },
		"reference step":                         func(o *Options) { o.RefDT = math.NaN() },
	} {
		o := Quick()
		change(&o)
		if err := o.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := Full().Validate(); err != nil {
		t.Fatal(err)
	}
	if err := Quick().Validate(); err != nil {
		t.Fatal(err)
	}
}
