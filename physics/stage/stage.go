// Package stage names the timed stages of a step and holds their times:
// Times, the wall time of each stage of one step (or summed over steps),
// and MS, their means in milliseconds, which the stats panel's frames, the
// headless runner's summary and the benchmark's report all show.
//
// It imports nothing of the simulation, so the frames a viewer reads can
// carry stage times without the solver behind them.
package stage

import "time"

// Stage names one timed stage of a step. The first group are the stages of
// the whole step; the second are those of the paper's Table 1.
type Stage int

const (
	Detect   Stage = iota // collision detection at the start of the step
	Assemble              // A = M + h·B + h²·K and b
	Factor                // numeric Cholesky factorisation of A
	Free                  // free motion Δv_free = A⁻¹·b
	BuildWH               // W_H = H·A⁻¹·Hᵀ (fast scheme, once per step)
	RebuildW              // W = C·W_H·Cᵀ (fast) or J·A⁻¹·Jᵀ (standard), summed over iterations
	PGS                   // projected Gauss–Seidel, summed over iterations
	Corr                  // correction of p (fast) or of q (standard), summed over iterations
	Elastic               // the backward-Euler residual and its correction (Newton on the whole residual), summed over iterations
	Newton                // whole Newton iterations (re-linearisation included), summed
	Final                 // final corrective motion and integration
	Measure               // end-of-step measurements and divergence checks
	Total                 // the recursive scheme: Build W_H + Newton iterations (Table 1 "Total")
	Step                  // the whole step
	count
)

var names = [count]string{
	"detect", "assemble", "factor", "free", "build_wh", "rebuild_w", "pgs",
	"corr", "elastic", "newton", "final", "measure", "total", "step",
}

// String returns the stage's short name.
func (s Stage) String() string {
	if s < 0 || s >= count {
		return "unknown"
	}
	return names[s]
}

// Times holds the wall time of each stage of one step, or of several
// steps summed.
type Times [count]time.Duration

// MS returns the time of stage s in milliseconds.
func (t *Times) MS(s Stage) float64 { return Millis(t[s]) }

// Millis returns d in milliseconds, as stage times are reported.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Add adds u to t stage by stage.
func (t *Times) Add(u *Times) {
	for i := range t {
		t[i] += u[i]
	}
}

// Means returns the mean stage times of t, summed over steps steps that
// ran newton Newton iterations in all: the per-iteration stages of Table 1
// (RebuildW, PGS, Corr, NewtonIter) per Newton iteration, every other
// stage per step; 0 where the count is 0. One step's times are
// t.Means(1, its iterations).
func (t *Times) Means(steps, newton int) MS {
	perStep := func(s Stage) float64 {
		if steps == 0 {
			return 0
		}
		return t.MS(s) / float64(steps)
	}
	perIter := func(s Stage) float64 {
		if newton == 0 {
			return 0
		}
		return t.MS(s) / float64(newton)
	}
	return MS{
		Table1: Table1{
			BuildWH: perStep(BuildWH), RebuildW: perIter(RebuildW), PGS: perIter(PGS),
			Corr: perIter(Corr), Elastic: perIter(Elastic), NewtonIter: perIter(Newton), Total: perStep(Total),
		},
		Detect: perStep(Detect), Assemble: perStep(Assemble), Factor: perStep(Factor),
		Free: perStep(Free), Final: perStep(Final), Step: perStep(Step),
	}
}

// MS are mean stage times in milliseconds: the columns of the paper's
// Table 1 and, per step, the other stages of the step. Its JSON form is
// part of the headless runner's and the benchmark's contracts.
type MS struct {
	Table1

	Detect   float64 `json:"detect"`
	Assemble float64 `json:"assemble"`
	Factor   float64 `json:"factor"`
	Free     float64 `json:"free"`
	Final    float64 `json:"final"`
	Step     float64 `json:"step"`
}

// Table1 are the measured columns of the paper's Table 1, ms: BuildWH
// and Total per step; RebuildW, PGS, Corr and NewtonIter per Newton
// iteration. Elastic, per Newton iteration too, is not the paper's: the
// residual of Newton on the whole residual and its correction (0 when
// off). The benchmark reports these alone.
type Table1 struct {
	BuildWH    float64 `json:"build_wh"`
	RebuildW   float64 `json:"rebuild_w"`
	PGS        float64 `json:"pgs"`
	Corr       float64 `json:"corr"`
	Elastic    float64 `json:"elastic"`
	NewtonIter float64 `json:"newton_iter"`
	Total      float64 `json:"total"`
}

// Values returns every time of m in a fixed order (Table 1's, then the
// rest of the step's), for a checksum.
func (m *MS) Values() [13]float64 {
	return [13]float64{m.BuildWH, m.RebuildW, m.PGS, m.Corr, m.Elastic, m.NewtonIter, m.Total,
		m.Detect, m.Assemble, m.Factor, m.Free, m.Final, m.Step}
}
