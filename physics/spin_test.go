package physics

import (
	"math"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// gyration returns the radius of gyration of the nodes (lumped masses)
// about the z axis through their centre of mass.
func gyration(q, mass []float64) float64 {
	var c r3.Vec
	total := 0.0
	for i, m := range mass {
		c = r3.Add(c, r3.Scale(m, point(q, i)))
		total += m
	}
	c = r3.Scale(1/total, c)
	s := 0.0
	for i, m := range mass {
		d := r3.Sub(point(q, i), c)
		s += m * (d.X*d.X + d.Y*d.Y)
	}
	return math.Sqrt(s / total)
}

// spinRun spins a free box (no gravity, no contact) at omega about z for
// the given time and returns the largest relative growth of its radius of
// gyration and the Newton iterations per step.
func spinRun(t testing.TB, dofs int, omega, h, dur float64, set settings.Settings) (growth, newton float64) {
	growth = math.Inf(-1)
	msh, err := mesh.BoxForDOFs(r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, dofs)
	if err != nil {
		t.Fatal(err)
	}
	set.TimeStep = h
	set.Gravity = r3.Vec{}
	sim, err := New(msh, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	q := append([]float64(nil), sim.State().Positions()...)
	v := make([]float64, len(q))
	mass := sim.Model().FEM().Mass()
	var c r3.Vec
	for i := range mass {
		c = r3.Add(c, point(q, i))
	}
	c = r3.Scale(1/float64(len(mass)), c)
	for i := range mass {
		d := r3.Sub(point(q, i), c)
		v[3*i], v[3*i+1] = -omega*d.Y, omega*d.X
	}
	if err := sim.SetState(q, v); err != nil {
		t.Fatal(err)
	}
	g0 := gyration(q, mass)
	steps := int(math.Round(dur / h))
	its := 0
	for s := 0; s < steps; s++ {
		st, err := sim.Step()
		if err != nil {
			t.Fatal(err)
		}
		its += len(st.Newton)
		growth = math.Max(growth, gyration(sim.State().Positions(), mass)/g0-1)
	}
	if os.Getenv("SPIN") != "" {
		q, v := sim.State().Positions(), sim.State().Velocities()
		var c r3.Vec
		for i := range mass {
			c = r3.Add(c, point(q, i))
		}
		c = r3.Scale(1/float64(len(mass)), c)
		L, I := 0.0, 0.0
		for i, m := range mass {
			d := r3.Sub(point(q, i), c)
			L += m * (d.X*v[3*i+1] - d.Y*v[3*i])
			I += m * (d.X*d.X + d.Y*d.Y)
		}
		t.Logf("  end: gyration %+.3f %%, omega %.3f rad/s", 100*(gyration(q, mass)/g0-1), L/I)
	}
	return growth, float64(its) / float64(steps)
}

func TestSpinExperiment(t *testing.T) {
	if os.Getenv("SPIN") == "" {
		t.Skip()
	}
	tol, _ := strconv.ParseFloat(os.Getenv("SPIN"), 64)
	for _, c := range []struct{ omega, h float64 }{{8 * math.Pi, 0.02}, {4 * math.Pi, 0.02}, {8 * math.Pi, 0.005}, {8 * math.Pi, 0.001}, {2 * math.Pi, 0.01}} {
		for _, K := range []int{5, 10} {
			set := settings.Default()
			set.NewtonIterations = K
			set.ElasticTolerance = tol
			g, its := spinRun(t, 3000, c.omega, c.h, 1, set)
			t.Logf("omega %.1f pi h %.0f ms K %d tol %g: growth %.3f %% newton %.2f", c.omega/math.Pi, c.h*1e3, K, tol, 100*g, its)
		}
	}
}
