package accuracy

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// The spin test: the grid's object alone, without gravity or contact,
// given a rigid spin of ω about the vertical axis through its centre and
// left to turn for spinDuration. The corotational K at q_t has the rigid
// rotation increment h·v in its kernel, so a step that linearises the
// internal forces once does not resist it and the body inflates; Newton
// on the whole residual does (docs/method.md, "Newton on the whole
// residual"). A row reports the radius of gyration about the axis
// against that of the reference (the same free body with the
// reference's step and Newton on the whole residual) at the same times.

// spinDuration and spinSample are the spin test's length and the
// interval of its comparisons, s (a multiple of every h of the grid).
const (
	spinDuration = 0.4
	spinSample   = 0.02
)

// SpinRow is one spin-test run.
type SpinRow struct {
	Omega   float64 `json:"omega"`
	DT      float64 `json:"dt"`
	Newton  int     `json:"newton"`
	Elastic float64 `json:"elastic_tolerance"`
	// MaxError and EndError are the largest and the last difference of
	// the radius of gyration from the reference's, relative to the rest
	// one.
	MaxError float64 `json:"max_error"`
	EndError float64 `json:"end_error"`
	Error    string  `json:"error,omitempty"`
}

// SpinGyration runs the spin test at ω = omega with the given settings
// (their TimeStep is the step; Gravity is ignored) on a box of edge size
// with about dofs DOFs, and returns the radius of gyration about the
// axis relative to the rest one, minus 1, every sample seconds over dur,
// and the mean Newton iterations per step. tick, when not nil, is called
// after every step.
func SpinGyration(dofs int, size, omega, dur, sample float64, set settings.Settings, tick func()) ([]float64, float64, error) {
	msh, err := mesh.BoxForDOFs(r3.Vec{X: size, Y: size, Z: size}, dofs)
	if err != nil {
		return nil, 0, err
	}
	set.Gravity = r3.Vec{}
	sim, err := physics.New(msh, nil, set)
	if err != nil {
		return nil, 0, err
	}
	defer sim.Close()
	q := append([]float64(nil), sim.Positions()...)
	mass := sim.Model().FEM().Mass()
	c := centre(q, mass)
	v := make([]float64, len(q))
	for i := range mass {
		v[3*i], v[3*i+1] = -omega*(q[3*i+1]-c.Y), omega*(q[3*i]-c.X)
	}
	if err := sim.SetState(q, v); err != nil {
		return nil, 0, err
	}
	g0 := gyration(q, mass)
	h := set.TimeStep
	steps, every := int(math.Round(dur/h)), int(math.Round(sample/h))
	if every < 1 || math.Abs(float64(every)*h-sample) > 1e-9 {
		return nil, 0, fmt.Errorf("h = %g s does not divide the spin test's sampling interval %g s", h, sample)
	}
	var out []float64
	its := 0
	for s := 1; s <= steps; s++ {
		st, err := sim.Step()
		if err != nil {
			return out, 0, err
		}
		its += len(st.Newton)
		if tick != nil {
			tick()
		}
		if s%every == 0 {
			out = append(out, gyration(sim.Positions(), mass)/g0-1)
		}
	}
	return out, float64(its) / float64(steps), nil
}

// centre returns the centre of mass of the nodes q (lumped masses).
func centre(q, mass []float64) r3.Vec {
	var c r3.Vec
	total := 0.0
	for i, m := range mass {
		c = r3.Add(c, r3.Scale(m, r3.Vec{X: q[3*i], Y: q[3*i+1], Z: q[3*i+2]}))
		total += m
	}
	return r3.Scale(1/total, c)
}

// gyration returns the radius of gyration of the nodes about the z axis
// through their centre of mass.
func gyration(q, mass []float64) float64 {
	c := centre(q, mass)
	s, total := 0.0, 0.0
	for i, m := range mass {
		dx, dy := q[3*i]-c.X, q[3*i+1]-c.Y
		s += m * (dx*dx + dy*dy)
		total += m
	}
	return math.Sqrt(s / total)
}

// SpinCases lists the spin test's runs: for each ω and h of the grid, the
// largest K with the internal forces linearised once per step and, when
// ElasticRows is set, with Newton on the whole residual.
func (o Options) SpinCases() []SpinRow {
	kMax := 0
	for _, k := range o.Newtons {
		kMax = max(kMax, k)
	}
	var out []SpinRow
	for _, w := range o.Omegas {
		for _, h := range o.DTs {
			out = append(out, SpinRow{Omega: w, DT: h, Newton: kMax})
			if o.ElasticRows > 0 {
				out = append(out, SpinRow{Omega: w, DT: h, Newton: kMax, Elastic: o.ElasticRows})
			}
		}
	}
	return out
}

// spinSteps returns the steps of the spin test, for a progress bar.
func (o Options) spinSteps() int {
	n := len(o.Omegas) * int(math.Round(spinDuration/o.RefDT))
	for _, r := range o.SpinCases() {
		n += int(math.Round(spinDuration / r.DT))
	}
	return n
}

// RunSpin runs the spin test's reference for each ω and its cases; tick
// is called after every step.
func RunSpin(o Options, tick func()) ([]SpinRow, error) {
	base := o.Base()
	spinSet := func(h float64, k int, elastic float64) settings.Settings {
		set := base.Physics
		set.TimeStep, set.NewtonIterations, set.ElasticTolerance = h, k, elastic
		set.ElasticTurn = 0 // every step, as configure's rows
		return set
	}
	refSet := spinSet(o.RefDT, o.RefNewton, o.RefElastic)
	refSet.TurnStart = settings.TurnLinearised // as the grid's reference (Case.LinearisedStart)
	refs := map[float64][]float64{}
	for _, w := range o.Omegas {
		g, _, err := SpinGyration(o.DOFs, base.ObjectSize, w, spinDuration, spinSample, refSet, tick)
		if err != nil {
			return nil, fmt.Errorf("spin test reference at ω = %g rad/s: %w", w, err)
		}
		refs[w] = g
	}
	rows := o.SpinCases()
	for i := range rows {
		r := &rows[i]
		g, _, err := SpinGyration(o.DOFs, base.ObjectSize, r.Omega, spinDuration, spinSample, spinSet(r.DT, r.Newton, r.Elastic), tick)
		if err != nil {
			r.Error = err.Error()
			r.MaxError, r.EndError = math.NaN(), math.NaN()
			continue
		}
		ref := refs[r.Omega]
		for k := range g {
			r.MaxError = math.Max(r.MaxError, math.Abs(g[k]-ref[k]))
		}
		r.EndError = math.Abs(g[len(g)-1] - ref[len(ref)-1])
	}
	return rows, nil
}
