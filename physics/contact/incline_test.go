package contact

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
)

// incline is a body resting on a plane tilted by θ about the y axis, in
// contact through k points, starting at rest. Over one step of h the free
// motion moves every point by h²·g (v = 0, Δv_free = h·g), so along the
// plane's normal n and downhill direction t
//
//	δn_free = −h²·g·cos θ,   δt_free = h²·g·sin θ.
//
// The points belong to one translating body of mass m, so the mapping
// compliance couples them all: (W_H)_ab = I₃/m. Newton's law gives the
// exact answer: the body sticks iff tan θ ≤ μ, with total normal force
// m·g·cos θ and friction m·g·sin θ uphill; above it slides with friction
// μ·m·g·cos θ. PGS multiplies by s = h², so λ is the force times h²/h² —
// the forces of the contact problem are m·g·(…) directly.
type incline struct {
	theta, mu, m, g, h float64
	frames             []m3.Mat3
}

// normalAndDownhill are the plane's outward normal and downhill direction.
func (in incline) normalAndDownhill() (n, t r3.Vec) {
	s, c := math.Sincos(in.theta)
	return r3.Vec{X: s, Z: c}, r3.Vec{X: c, Z: -s}
}

// solve runs the fast-scheme pipeline: RebuildW, PGS, CorrectP. It
// returns the total world-frame force, the contact forces and the points'
// motion over the step.
func (in incline) solve(t *testing.T) (total r3.Vec, lambda, motion []float64, pgs PGS) {
	t.Helper()
	k := len(in.frames)
	N := 3 * k
	WH := make([]float64, N*N)
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			for r := 0; r < 3; r++ {
				WH[(3*a+r)*N+3*b+r] = 1 / in.m
			}
		}
	}
	W := make([]float64, N*N)
	if err := RebuildW(W, WH, in.frames); err != nil {
		t.Fatal(err)
	}
	s := in.h * in.h
	free := r3.Vec{Z: -in.g * s} // p_free − p_t for every point
	deltaFree := make([]float64, N)
	pFree := make([]float64, N)
	for a, Ca := range in.frames {
		d := Ca.MulVec(free)
		deltaFree[3*a], deltaFree[3*a+1], deltaFree[3*a+2] = d.X, d.Y, d.Z
		pFree[3*a], pFree[3*a+1], pFree[3*a+2] = free.X, free.Y, free.Z
	}
	pgs = PGS{MaxIterations: 20000, Tolerance: 1e-14}
	lambda = make([]float64, N)
	if res, err := pgs.Solve(W, k, s, deltaFree, in.mu, lambda); err != nil || !res.Converged {
		t.Fatalf("PGS: %+v, %v", res, err)
	}
	motion = make([]float64, N)
	if err := CorrectP(motion, pFree, WH, in.frames, lambda, s, make([]float64, N)); err != nil {
		t.Fatal(err)
	}
	for a, Ca := range in.frames {
		total = r3.Add(total, Ca.MulVecT(r3.Vec{X: lambda[3*a], Y: lambda[3*a+1], Z: lambda[3*a+2]}))
	}
	return total, lambda, motion, pgs
}

// inclineFrames returns k frames on the plane's normal whose first
// tangents are turned by different angles from the downhill direction: the
// answer must not depend on how the tangent basis is chosen.
func inclineFrames(theta float64, k int) []m3.Mat3 {
	in := incline{theta: theta}
	n, t := in.normalAndDownhill()
	frames := make([]m3.Mat3, k)
	for a := range frames {
		phi := 0.5 + 1.3*float64(a)
		s, c := math.Sincos(phi)
		hint := r3.Add(r3.Scale(c, t), r3.Scale(s, r3.Cross(n, t)))
		frames[a] = m3.FrameFromTangent(n, hint)
	}
	return frames
}

func TestInclineStickSlipThreshold(t *testing.T) {
	const mu, m, g, h = 0.5, 2.0, 9.81, 0.01
	for _, points := range []int{1, 4} {
		for _, factor := range []float64{0.98, 1.02} {
			theta := math.Atan(factor * mu)
			wantSlip := factor > 1
			t.Run(fmt.Sprintf("points=%d_tan=%.2fmu", points, factor), func(t *testing.T) {
				in := incline{theta: theta, mu: mu, m: m, g: g, h: h, frames: inclineFrames(theta, points)}
				total, _, motion, pgs := in.solve(t)
				n, down := in.normalAndDownhill()
				sin, cos := math.Sincos(theta)
				N, F := r3.Dot(total, n), -r3.Dot(total, down)
				if math.Abs(N-m*g*cos) > 1e-9*m*g {
					t.Errorf("normal force %.12g, want m·g·cos θ = %.12g", N, m*g*cos)
				}
				wantF := m * g * sin
				if wantSlip {
					wantF = mu * m * g * cos
				}
				if math.Abs(F-wantF) > 1e-9*m*g {
					t.Errorf("uphill friction %.12g, want %.12g", F, wantF)
				}
				if off := r3.Norm(r3.Sub(total, r3.Add(r3.Scale(N, n), r3.Scale(-F, down)))); off > 1e-9*m*g {
					t.Errorf("force has %g off the n–downhill plane", off)
				}
				// The points' motion over the step (CorrectP): never into the
				// plane, downhill only when slipping, by h²·g·(sin θ − μ cos θ).
				wantSlide := 0.0
				if wantSlip {
					wantSlide = h * h * g * (sin - mu*cos)
				}
				for a := 0; a < points; a++ {
					d := r3.Vec{X: motion[3*a], Y: motion[3*a+1], Z: motion[3*a+2]}
					if dn := r3.Dot(d, n); math.Abs(dn) > 1e-12*h*h*g {
						t.Errorf("point %d moves %g along the normal, want 0", a, dn)
					}
					if dt := r3.Dot(d, down); math.Abs(dt-wantSlide) > 1e-9*h*h*g {
						t.Errorf("point %d slides %g downhill, want %g", a, dt, wantSlide)
					}
				}
				// One body: the load may be carried by any subset of the
				// points (the others touch with λ = 0), but every carrying
				// point is in the regime Newton's law says.
				active := 0
				for a, st := range pgs.States {
					if st == Separated {
						continue
					}
					active++
					if (st == Slip) != wantSlip {
						t.Errorf("contact %d is %v, want slip = %v", a, st, wantSlip)
					}
				}
				if active == 0 {
					t.Errorf("no contact carries the body")
				}
			})
		}
	}
}
