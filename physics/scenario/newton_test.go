package scenario

import (
	"math"
	"testing"

	"softgrasp/physics/settings"
)

// fastSpin is the grasp-and-rotate scene spun at ω = 4π rad/s with h = 10
// ms, on a slippery object (μ = 0.1) so that the grasp actually slides
// under gravity and inertia: the regime in which stale constraint
// directions matter. (A firm grasp sticks everywhere, and a sticking
// contact's end position does not depend on the basis its three
// directions are written in.)
func fastSpin(k int) settings.Scenario {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.Omega = 4 * math.Pi
	cfg.Physics.TimeStep = 0.01
	cfg.TargetDOFs = 1000
	cfg.Physics.Friction = 0.1
	cfg.Physics.NewtonIterations = k
	return cfg
}

// TestNewtonIterationsReducePenetrationAndSlip is the paper's claim on the
// grasp-and-rotate scene: re-linearising the contacts in K = 5 Newton
// iterations gives a smaller end-of-step penetration and a smaller slip of
// the grasped object than the classic scheme (K = 1), at equal PGS sweeps
// per Newton iteration.
func TestNewtonIterationsReducePenetrationAndSlip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp-and-rotate scene twice")
	}
	classic := runScene(t, fastSpin(1))
	newton := runScene(t, fastSpin(5))
	t.Logf("K=1: max penetration %.4g mm, slip %.4g mm, jitter %.4g", classic.MaxPenetration*1e3, classic.Slip*1e3, classic.ForceJitter)
	t.Logf("K=5: max penetration %.4g mm, slip %.4g mm, jitter %.4g (%.2f Newton iterations per step)",
		newton.MaxPenetration*1e3, newton.Slip*1e3, newton.ForceJitter, newton.NewtonMean)
	if !classic.Held || !newton.Held {
		t.Fatalf("the object was dropped (K=1 held %v, K=5 held %v): the comparison needs a grasp", classic.Held, newton.Held)
	}
	if classic.MaxPenetration <= 0 {
		t.Fatal("K=1 shows no penetration at all: the scene does not exercise the linearisation error")
	}
	if newton.MaxPenetration >= classic.MaxPenetration {
		t.Fatalf("K=5 max penetration %.4g mm is not below K=1's %.4g mm", newton.MaxPenetration*1e3, classic.MaxPenetration*1e3)
	}
	if newton.Slip >= classic.Slip {
		t.Fatalf("K=5 slip %.4g mm is not below K=1's %.4g mm", newton.Slip*1e3, classic.Slip*1e3)
	}
}

// TestContactToleranceStopsNewtonEarlier runs the grasp-and-rotate scene
// at 1000 DOFs with and without ContactTolerance: with it, steps whose
// contact residual (Signorini's and Coulomb's) is within 0.1 µm stop
// before the proximity points settle to NewtonPositionTolerance, so fewer
// Newton iterations run, and the grasp ends the same: held, no more
// penetration, slip within 2 % (measured at these 1000 DOFs: 2.26 → 1.87
// iterations per step, slip 0.7621 → 0.7665 mm, +0.58 %, penetration 0
// both; at 3000 DOFs, 330 steps: 2.14 → 1.72, slip unchanged to 4 digits).
func TestContactToleranceStopsNewtonEarlier(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp-and-rotate scene twice")
	}
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 1000
	base := runScene(t, cfg)
	cfg.Physics.ContactTolerance = 1e-7
	tol := runScene(t, cfg)
	t.Logf("Newton iterations per step %.3f -> %.3f; slip %.4f -> %.4f mm; penetration %.4f -> %.4f mm",
		base.NewtonMean, tol.NewtonMean, base.Slip*1e3, tol.Slip*1e3, base.MaxPenetration*1e3, tol.MaxPenetration*1e3)
	if !tol.Held || tol.Error != "" {
		t.Fatalf("with ContactTolerance: held %v, error %q", tol.Held, tol.Error)
	}
	if tol.NewtonMean >= base.NewtonMean {
		t.Fatalf("ContactTolerance did not stop Newton earlier: %.3f iterations per step, %.3f without", tol.NewtonMean, base.NewtonMean)
	}
	if tol.MaxPenetration > base.MaxPenetration+1e-6 || math.Abs(tol.Slip-base.Slip) > 0.02*base.Slip {
		t.Fatalf("ContactTolerance changed the grasp: penetration %.4g mm (was %.4g), slip %.4g mm (was %.4g)",
			tol.MaxPenetration*1e3, base.MaxPenetration*1e3, tol.Slip*1e3, base.Slip*1e3)
	}
}

// TestPGSForcing: with the forcing term η (Settings.PGSForcing), each
// step's first Newton iteration solves PGS to η, later ones to
// max(PGSTolerance, min(η, η·θ)) with θ their re-linearisation's turn,
// and the last allowed one to PGSTolerance; without it every iteration
// keeps PGSTolerance. On 60 steps of the fast spin's grasp at 300 DOFs
// (the jaws closing) the forcing spends fewer sweeps and holds the
// penetration at what full PGS leaves, within 0.02 mm.
func TestPGSForcing(t *testing.T) {
	run := func(eta float64) (sweeps int, pen float64) {
		cfg := settings.DefaultScenario(settings.FastSpin)
		cfg.TargetDOFs = 300
		cfg.Physics.PGSForcing = eta
		sc, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer sc.Close()
		set := sc.Sim.Settings()
		for i := 0; i < 60; i++ {
			st, err := sc.Step()
			if err != nil {
				t.Fatal(err)
			}
			pen = math.Max(pen, st.Penetration)
			for k, rec := range st.Newton {
				sweeps += rec.PGSIterations
				want := set.PGSTolerance
				switch {
				case eta == 0 || k == set.NewtonIterations-1:
				case k == 0:
					want = eta
				default:
					want = math.Max(set.PGSTolerance, math.Min(eta, eta*rec.DirectionChange))
				}
				if rec.PGSTolerance != want {
					t.Fatalf("η %g, step %d, iteration %d (turn %.3g rad): PGS tolerance %g, want %g", eta, i, k, rec.DirectionChange, rec.PGSTolerance, want)
				}
			}
		}
		return sweeps, pen
	}
	s0, p0 := run(0)
	s1, p1 := run(0.01)
	t.Logf("PGS sweeps %d -> %d, max penetration %.4f -> %.4f mm", s0, s1, 1e3*p0, 1e3*p1)
	if s1 >= s0 || p1 > p0+2e-5 {
		t.Fatalf("forcing 0.01: %d sweeps (%d without), penetration %.4f mm (%.4f without)", s1, s0, 1e3*p1, 1e3*p0)
	}
}
