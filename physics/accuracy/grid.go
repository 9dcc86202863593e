package accuracy

import (
	"fmt"
	"math"
	"strconv"

	"softgrasp/physics/settings"
)

// Options is the grid of `softgrasp accuracy` and its reference.
type Options struct {
	DOFs    int
	Mu      float64
	Omegas  []float64 // rad/s
	DTs     []float64 // s
	Newtons []int     // K values
	Schemes []settings.Scheme
	PGS     int // sweeps per Newton iteration of the grid rows

	// ConvergedPGS and ConvergedTol are the PGS limits of the rows run
	// with PGS converged (K = 1 and the largest K, fast scheme).
	ConvergedPGS int
	ConvergedTol float64

	// ElasticRows, when positive, adds for each ω and h a fast-scheme row
	// per K > 1 with Newton on the whole residual to this tolerance (m).
	ElasticRows float64

	// The reference: scheme, Newton on the whole residual (its tolerance,
	// m), step, Newton iterations (stopping on the default tolerances),
	// PGS sweeps and tolerance; RefCheck also runs it at twice its step
	// to report how converged in h it is. The standard scheme with the
	// whole residual shares neither the fast scheme's fixed H nor the
	// internal forces linearised once per step with the rows it judges.
	RefScheme  settings.Scheme
	RefElastic float64
	RefDT      float64
	RefNewton  int
	RefPGS     int
	RefPGSTol  float64
	RefCheck   bool

	// AlarmFallMargin is the scene's Physics.AlarmFallMargin for the
	// reference and every row (settings.Physics; 0 keeps the default).
	AlarmFallMargin float64
	// AlarmFall is the scene's Physics.AlarmFall for the reference and
	// every row (its zero value, gravity's fall, is the default).
	AlarmFall settings.Fall
}

// Full is the grid of docs/accuracy.md's table.
func Full() Options {
	d := settings.DefaultScenario(settings.GraspRotate) // the scene's size, μ and PGS sweeps
	return Options{
		DOFs: d.TargetDOFs, Mu: d.Physics.Friction,
		Omegas:  []float64{2 * math.Pi, 4 * math.Pi, 8 * math.Pi},
		DTs:     []float64{0.005, 0.01, 0.02},
		Newtons: []int{1, 2, 5, 10},
		Schemes: []settings.Scheme{settings.Fast, settings.Standard},
		PGS:     d.Physics.PGSIterations, ConvergedPGS: 1000, ConvergedTol: 1e-10, ElasticRows: 1e-5,
		RefScheme: settings.Standard, RefElastic: 1e-7,
		RefDT: 0.001, RefNewton: 10, RefPGS: 300, RefPGSTol: 1e-9, RefCheck: true,
	}
}

// Quick is a smoke-test grid that runs in about a minute on two cores.
func Quick() Options {
	o := Full()
	o.DOFs = 1000
	o.Omegas = []float64{8 * math.Pi}
	o.DTs = []float64{0.02}
	o.Newtons = []int{1, 5}
	o.ConvergedPGS = 150
	o.RefDT, o.RefPGS, o.RefCheck = 0.005, 60, false
	return o
}

// Validate names the first option out of range.
func (o Options) Validate() error {
	switch {
	case o.DOFs < 24:
		return fmt.Errorf("dofs = %d: need at least 24", o.DOFs)
	case len(o.Omegas) == 0 || len(o.DTs) == 0 || len(o.Newtons) == 0 || len(o.Schemes) == 0:
		return fmt.Errorf("the grid is empty: give at least one ω, h, K and scheme")
	case !(o.RefDT > 0):
		return fmt.Errorf("reference step %g s: must be positive", o.RefDT)
	case !(o.RefElastic >= 0) || !(o.ElasticRows >= 0):
		return fmt.Errorf("Newton on the whole residual: tolerances %g (reference) and %g (rows) must be ≥ 0", o.RefElastic, o.ElasticRows)
	case o.AlarmFallMargin != 0 && !(o.AlarmFallMargin >= 1 && o.AlarmFallMargin <= 1.5):
		return fmt.Errorf("alarm fall margin %g: must be in [1, 1.5] (0 keeps the default)", o.AlarmFallMargin)
	}
	for _, h := range o.DTs {
		if r := h / o.RefDT; !(h > 0) || math.Abs(r-math.Round(r)) > 1e-6 || r < 1 {
			return fmt.Errorf("h = %g s is not a whole multiple of the reference step %g s: their times would not match", h, o.RefDT)
		}
	}
	for _, k := range o.Newtons {
		if k < 1 || k > settings.MaxNewton {
			return fmt.Errorf("K = %d: must be in [1, %d]", k, settings.MaxNewton)
		}
	}
	return nil
}

// Cases lists the runs of the grid, reference excluded: for each ω and h,
// every scheme at every K with PGS sweeps per iteration; K = 1 with K
// times those sweeps for every K > 1 (equal work); the fast scheme at
// every K > 1 with Newton on the whole residual (ElasticRows); and K = 1
// and the largest K with PGS converged.
func (o Options) Cases() []Case {
	var out []Case
	kMax := 0
	for _, k := range o.Newtons {
		kMax = max(kMax, k)
	}
	for _, w := range o.Omegas {
		for _, h := range o.DTs {
			base := Case{PGS: o.PGS, PGSTol: 0, DT: h, Omega: w}
			for _, sch := range o.Schemes {
				for _, k := range o.Newtons {
					c := base
					c.Scheme, c.Newton, c.Kind = sch, k, "grid"
					out = append(out, c)
				}
			}
			for _, k := range o.Newtons {
				if k > 1 {
					c := base
					c.Scheme, c.Newton, c.PGS, c.Kind = settings.Fast, 1, k*o.PGS, "equal-work"
					out = append(out, c)
				}
			}
			for _, k := range o.Newtons {
				if k > 1 && o.ElasticRows > 0 {
					c := base
					c.Scheme, c.Newton, c.Elastic, c.Kind = settings.Fast, k, o.ElasticRows, "elastic"
					out = append(out, c)
				}
			}
			for _, k := range []int{1, kMax} {
				c := base
				c.Scheme, c.Newton, c.PGS, c.PGSTol, c.Kind = settings.Fast, k, o.ConvergedPGS, o.ConvergedTol, "converged"
				out = append(out, c)
				if kMax == 1 {
					break
				}
			}
		}
	}
	return out
}

// Result is the output of a grid run.
type Result struct {
	Reference Reference `json:"reference"`
	Rows      []Row     `json:"rows"`
	// Spin holds the spin test's rows (spin.go).
	Spin []SpinRow `json:"spin"`
}

// Base returns the scene every run starts from.
func (o Options) Base() settings.Scenario {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = o.DOFs
	cfg.Physics.Friction = o.Mu
	if o.AlarmFallMargin != 0 {
		cfg.Physics.AlarmFallMargin = o.AlarmFallMargin
	}
	cfg.Physics.AlarmFall = o.AlarmFall
	return cfg
}

// TotalSteps returns the steps of the whole run, for a progress bar.
func (o Options) TotalSteps() int {
	dur := scenarioDuration(o.Base())
	steps := 0
	perRef := int(math.Ceil(dur / o.RefDT))
	if o.RefCheck {
		perRef += int(math.Ceil(dur / (2 * o.RefDT)))
	}
	steps += len(o.Omegas) * perRef
	for _, c := range o.Cases() {
		steps += int(math.Ceil(dur/c.DT - 1e-9))
	}
	return steps + o.spinSteps()
}

// Run runs the references, the grid and the spin test; tick is called
// after every step.
// A case that diverges is reported in its row (Error) and does not stop
// the grid; a reference that fails does.
func Run(o Options, tick func()) (Result, error) {
	if err := o.Validate(); err != nil {
		return Result{}, err
	}
	base := o.Base()
	res := Result{Reference: Reference{
		Scheme: o.RefScheme.String(), Elastic: o.RefElastic,
		DT: o.RefDT, Newton: o.RefNewton, PGS: o.RefPGS, PGSTol: o.RefPGSTol, DOFs: o.DOFs, Mu: o.Mu,
		AlarmFallMargin: base.Physics.AlarmFallMargin,
		AlarmFall:       base.Physics.AlarmFall.String(),
		Slip:            map[string]float64{},
	}}
	refs := map[float64]*Track{}
	for _, w := range o.Omegas {
		rc := Case{Scheme: o.RefScheme, Newton: o.RefNewton, PGS: o.RefPGS, PGSTol: o.RefPGSTol, DT: o.RefDT, Omega: w, Elastic: o.RefElastic, LinearisedStart: true}
		tr, sum, err := RunReference(base, rc, tick)
		if err != nil {
			return res, err
		}
		refs[w] = tr
		key := OmegaKey(w)
		res.Reference.Slip[key] = sum.Slip
		res.Reference.DOFs = sum.DOFs
		if o.RefCheck {
			e, err := SelfError(base, tr, rc, tick)
			if err != nil {
				return res, err
			}
			if res.Reference.SelfError == nil {
				res.Reference.SelfError = map[string]float64{}
			}
			res.Reference.SelfError[key] = e
		}
	}
	for _, c := range o.Cases() {
		res.Rows = append(res.Rows, RunCase(base, c, refs[c.Omega], tick))
	}
	spin, err := RunSpin(o, tick)
	res.Spin = spin
	return res, err
}

// OmegaKey names a spin speed in multiples of π ("4π") when it is one,
// else in rad/s.
func OmegaKey(w float64) string {
	if m := w / math.Pi; math.Abs(m-math.Round(m)) < 1e-9 {
		return strconv.Itoa(int(math.Round(m))) + "π"
	}
	return strconv.FormatFloat(w, 'g', 4, 64)
}
