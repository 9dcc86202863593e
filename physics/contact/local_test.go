package contact

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"softgrasp/physics/m3"
)

// solveG runs the local solver on G (s = 1, so W_aa = G) and gap d.
func solveG(t *testing.T, G m3.Mat3, d [3]float64, mu float64) ([3]float64, State) {
	t.Helper()
	Gs := [9]float64(G)
	b, err := newLocalBlock(0, &Gs, 1)
	if err != nil {
		t.Fatalf("newLocalBlock: %v", err)
	}
	ln, lt1, lt2, st := b.solveLocal(mu, d[0], d[1], d[2])
	return [3]float64{ln, lt1, lt2}, st
}

// localGap is δ = G·λ + d.
func localGap(G m3.Mat3, l, d [3]float64) [3]float64 {
	var g [3]float64
	for r := 0; r < 3; r++ {
		g[r] = d[r] + G[3*r]*l[0] + G[3*r+1]*l[1] + G[3*r+2]*l[2]
	}
	return g
}

// coupledG is an SPD block with normal–tangent and tangent–tangent
// coupling, as a contact on a sheared element produces.
var coupledG = m3.Mat3{
	2.0, 0.4, -0.3,
	0.4, 1.5, 0.25,
	-0.3, 0.25, 1.1,
}

// strongG couples the normal and the first tangent so strongly that a
// tangential push can pull the contact open.
var strongG = m3.Mat3{
	1, 0.9, 0,
	0.9, 1, 0,
	0, 0, 1,
}

func TestLocalSolverAnalytic(t *testing.T) {
	tests := []struct {
		name  string
		G     m3.Mat3
		d     [3]float64
		mu    float64
		want  [3]float64 // analytic λ
		state State
	}{
		{"separation", coupledG, [3]float64{0.1, 0.3, -0.2}, 0.5, [3]float64{}, Separated},
		{"touching gap is separated", coupledG, [3]float64{0, 5, 5}, 0.5, [3]float64{}, Separated},
		// λn = −d_n/G_nn, λt = 0.
		{"frictionless diagonal", m3.Mat3{2, 0, 0, 0, 3, 0, 0, 0, 4}, [3]float64{-1, 0.5, 0.2}, 0, [3]float64{0.5, 0, 0}, Slip},
		// −G⁻¹d = (2/2, −0.3/3, 0.4/4), ‖λt‖ = 0.141 ≤ 1·1.
		{"stick inside cone", m3.Mat3{2, 0, 0, 0, 3, 0, 0, 0, 4}, [3]float64{-2, 0.3, -0.4}, 1, [3]float64{1, -0.1, 0.1}, Stick},
		// λn = 1, λt = −μ·λn·d_t/‖d_t‖ = −0.5·(3, 4)/5.
		{"slip isotropic tangent", m3.Mat3{2, 0, 0, 0, 3, 0, 0, 0, 3}, [3]float64{-2, 3, 4}, 0.5, [3]float64{1, -0.3, -0.4}, Slip},
		// d_t along t2: λt = (0, −μ·λn).
		{"slip anisotropic along axis", m3.Mat3{1, 0, 0, 0, 2, 0, 0, 0, 5}, [3]float64{-1, 0, 3}, 0.3, [3]float64{1, 0, -0.3}, Slip},
		// With μ = 0 the coupling is irrelevant: δn = G_nn·λn + d_n = 0.
		{"frictionless coupled", coupledG, [3]float64{-3, 0.7, -0.2}, 0, [3]float64{1.5, 0, 0}, Slip},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, st := solveG(t, tc.G, tc.d, tc.mu)
			if st != tc.state {
				t.Errorf("state = %v, want %v", st, tc.state)
			}
			for r := range l {
				if math.Abs(l[r]-tc.want[r]) > 1e-14 {
					t.Errorf("λ = %v, want %v", l, tc.want)
					break
				}
			}
			checkContactLaw(t, 0, l, localGap(tc.G, l, tc.d), tc.mu, st, lawTolerance{1e-13, 1e-13, 1e-13})
		})
	}
}

// TestLocalSolverPrescribed builds d = −G·λ* from a chosen λ* inside or on
// the cone: λ* is then the solution (δ = 0), whatever branch finds it.
func TestLocalSolverPrescribed(t *testing.T) {
	const mu = 0.6
	tests := []struct {
		name  string
		G     m3.Mat3
		want  [3]float64
		state State // 0 when either stick or slip is right (on the cone)
	}{
		{"stick coupled", coupledG, [3]float64{2, 0.3, -0.5}, Stick},
		{"on the cone diagonal", m3.Mat3{2, 0, 0, 0, 3, 0, 0, 0, 4}, [3]float64{1, mu * 0.6, -mu * 0.8}, 0},
		{"on the cone coupled", coupledG, [3]float64{2, -2 * mu * 0.8, 2 * mu * 0.6}, 0},
		{"on the cone strong coupling", strongG, [3]float64{0.5, 0.5 * mu, 0}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d [3]float64
			for r := 0; r < 3; r++ {
				d[r] = -(tc.G[3*r]*tc.want[0] + tc.G[3*r+1]*tc.want[1] + tc.G[3*r+2]*tc.want[2])
			}
			l, st := solveG(t, tc.G, d, mu)
			if tc.state != 0 && st != tc.state {
				t.Errorf("state = %v, want %v", st, tc.state)
			}
			if st == Separated {
				t.Errorf("state = separated, want an active contact")
			}
			for r := range l {
				if math.Abs(l[r]-tc.want[r]) > 1e-12 {
					t.Errorf("λ = %v, want %v", l, tc.want)
					break
				}
			}
		})
	}
}

// TestLocalSolverSlipCoupled checks the three slip conditions on coupled
// SPD blocks: δn = 0, ‖λt‖ = μ·λn and λt antiparallel to δt, to 1e-9.
func TestLocalSolverSlipCoupled(t *testing.T) {
	tests := []struct {
		name string
		G    m3.Mat3
		d    [3]float64
		mu   float64
	}{
		{"coupled push along t1", coupledG, [3]float64{-1, 3, 0}, 0.4},
		{"coupled push along t2", coupledG, [3]float64{-0.5, 0, -4}, 0.8},
		{"coupled oblique", coupledG, [3]float64{-2, -5, 7}, 1.2},
		// The stick candidate has λn < 0 here: the tangential push would
		// pull the contact open without friction's cap.
		{"stick candidate pulls", strongG, [3]float64{-0.1, -2, 0}, 0.5},
		{"strong coupling reverse", strongG, [3]float64{-0.1, 2, 0.5}, 0.9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, st := solveG(t, tc.G, tc.d, tc.mu)
			if st != Slip {
				t.Fatalf("state = %v, want slip (λ = %v)", st, l)
			}
			g := localGap(tc.G, l, tc.d)
			lt, dt := math.Hypot(l[1], l[2]), math.Hypot(g[1], g[2])
			if math.Abs(g[0]) > 1e-9 {
				t.Errorf("δn = %g, want 0", g[0])
			}
			if math.Abs(lt-tc.mu*l[0]) > 1e-9*l[0] {
				t.Errorf("‖λt‖ = %.15g, want μ·λn = %.15g", lt, tc.mu*l[0])
			}
			if cos := (l[1]*g[1] + l[2]*g[2]) / (lt * dt); dt < 1e-12 || cos > -1+1e-9 {
				t.Errorf("λt·δt/(‖λt‖‖δt‖) = %.15g with ‖δt‖ = %g, want −1 with slip", cos, dt)
			}
		})
	}
}

// TestLocalSolverRandom checks the contact law on seeded random SPD blocks
// and gaps, all three regimes mixed.
func TestLocalSolverRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	count := map[State]int{}
	for k := 0; k < 2000; k++ {
		G := m3.Mat3(randSPD(rng, 3, 1, 0.05))
		d := [3]float64{rng.NormFloat64(), 2 * rng.NormFloat64(), 2 * rng.NormFloat64()}
		mu := []float64{0, 0.2, 0.8, 2}[k%4]
		l, st := solveG(t, G, d, mu)
		count[st]++
		scale := math.Max(1, math.Hypot(d[0], math.Hypot(d[1], d[2])))
		checkContactLaw(t, k, l, localGap(G, l, d), mu, st, lawTolerance{1e-10 * scale, 1e-10 * scale, 1e-9})
		if t.Failed() {
			t.Fatalf("case %d: G = %v, d = %v, μ = %g", k, G, d, mu)
		}
	}
	for _, st := range []State{Separated, Stick, Slip} {
		if count[st] < 100 {
			t.Errorf("only %d random cases ended %v: the sample does not cover it", count[st], st)
		}
	}
}

func TestLocalBlockRejects(t *testing.T) {
	tests := []struct {
		name string
		W    [9]float64
		want string
	}{
		{"zero normal", [9]float64{0, 0, 0, 0, 1, 0, 0, 0, 1}, "W_nn = 0"},
		{"negative normal", [9]float64{-1, 0, 0, 0, 1, 0, 0, 0, 1}, "W_nn = -1"},
		{"singular tangent", [9]float64{1, 0, 0, 0, 1, 1, 0, 1, 1}, "not positive definite: det"},
		{"indefinite", [9]float64{1, 2, 0, 2, 1, 0, 0, 0, 1}, "not positive definite: det"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newLocalBlock(4, &tc.W, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "contact 4") {
				t.Errorf("err = %v, want it to name contact 4 and contain %q", err, tc.want)
			}
		})
	}
}

func TestStateString(t *testing.T) {
	for st, want := range map[State]string{Separated: "separated", Stick: "stick", Slip: "slip", 7: "State(7)"} {
		if got := st.String(); got != want {
			t.Errorf("State(%d).String() = %q, want %q", st, got, want)
		}
	}
}
