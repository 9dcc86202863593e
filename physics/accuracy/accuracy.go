// Package accuracy measures how accurately the recursive corrective motion
// resolves contact when the constraint directions change within a step:
// the grasp-and-spin scene run on a grid of spin speeds ω, time steps h,
// Newton iterations K and both update schemes, each run compared with a
// reference trajectory of the same scene and inputs at a fine step with
// converged PGS and Newton iterations.
//
// Every run reports the solver work it spent (the PGS sweeps summed over
// the steps and their Newton iterations), so that K is compared with K at
// equal work: for each K > 1 the grid also runs K = 1 with K times the
// sweeps per solve, and K = 1 and K = 5 with PGS run to convergence. What
// K buys beyond more PGS sweeps is then the difference between those rows.
package accuracy

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// Case is one run of the grid.
type Case struct {
	Scheme settings.Scheme
	Newton int     // K
	PGS    int     // sweeps per Newton iteration
	PGSTol float64 // PGS relative tolerance (0: always PGS sweeps)
	DT     float64 // h, s
	Omega  float64 // spin speed, rad/s
	// Elastic is Settings.ElasticTolerance: Newton on the whole residual
	// when positive (m).
	Elastic float64
	// Kind says why the row is there: "grid" (K at the default sweeps),
	// "equal-work" (K = 1 with the sweeps of the K it is compared with),
	// "converged" (PGS run to convergence) or "elastic" (Newton on the
	// whole residual).
	Kind string
	// LinearisedStart sets Settings.TurnStart to TurnLinearised (else the
	// base's, the default TurnPredicted): the reference starts a step's
	// free motion from A⁻¹·b. At h = 1 ms with the residual iterated in
	// every step, the predicted start let the grasped object creep through
	// the spin (4π, 1k DOFs: slip 0.81 → 0.90 mm, against 0.81 mm at
	// 2 ms), and the reference's check against itself at 2h read 0.052 mm
	// instead of 0.005 mm (docs/method.md, "A turning step starts from its
	// rigid motion").
	LinearisedStart bool
}

// Track is what a run records at each step from the lift's start, when
// its grip has settled: the time since then and the object's centre of
// mass in the gripper frame. The grip settles after a time that depends
// on the run's step (the script waits for it), so tracks compare at equal
// times since their own lift, not at equal times of the run.
type Track struct {
	Times []float64
	COM   []r3.Vec
}

// at returns the centre of mass at time t when the track has a step
// there (within a tenth of a microsecond), else ok = false.
func (tr *Track) at(t float64) (r3.Vec, bool) {
	if len(tr.Times) == 0 {
		return r3.Vec{}, false
	}
	i := int(math.Round((t - tr.Times[0]) / tr.step()))
	for _, j := range []int{i - 1, i, i + 1} {
		if j >= 0 && j < len(tr.Times) && math.Abs(tr.Times[j]-t) < 1e-7 {
			return tr.COM[j], true
		}
	}
	return r3.Vec{}, false
}

func (tr *Track) step() float64 {
	if len(tr.Times) < 2 {
		return 1
	}
	return tr.Times[1] - tr.Times[0]
}

// Row is one run's result (the JSON row of `softgrasp accuracy`).
type Row struct {
	Scheme         string  `json:"scheme"`
	Newton         int     `json:"newton"`
	PGS            int     `json:"pgs"`
	Kind           string  `json:"kind"`
	PGSSweepsTotal int     `json:"pgs_sweeps_total"`
	DT             float64 `json:"dt"`
	Omega          float64 `json:"omega"`
	Elastic        float64 `json:"elastic_tolerance"`
	// MaxPenetration is the deepest true overlap over the whole run and
	// SpinPenetration over the spin phase alone (m); Violation the
	// contact law's error (closer than the contact distance), m.
	MaxPenetration  float64 `json:"max_penetration"`
	SpinPenetration float64 `json:"spin_penetration"`
	Violation       float64 `json:"violation"`
	// Slip is the object's drift in the gripper frame since the grasp
	// closed, at the end (m); SlipError the largest distance between the
	// object's centre of mass in the gripper frame and the reference's at
	// the same times since each one's lift started (Track), m.
	Slip           float64 `json:"slip"`
	SlipError      float64 `json:"slip_error"`
	ForceJitter    float64 `json:"force_jitter"`
	NewtonMean     float64 `json:"newton_mean"`
	ConvergedShare float64 `json:"converged_share"`
	Held           bool    `json:"held"`
	Error          string  `json:"error,omitempty"`
}

// Reference describes the reference runs (one per ω).
type Reference struct {
	Scheme string `json:"scheme"`
	// Elastic is the tolerance of its Newton on the whole residual, m.
	Elastic float64 `json:"elastic_tolerance"`
	DT      float64 `json:"dt"`
	Newton  int     `json:"newton"`
	PGS     int     `json:"pgs"`
	PGSTol  float64 `json:"pgs_tolerance"`
	DOFs    int     `json:"dofs"`
	Mu      float64 `json:"mu"`
	// AlarmFallMargin is the scene's, for the reference and every row.
	AlarmFallMargin float64 `json:"alarm_fall_margin"`
	// AlarmFall is the scene's (settings.Fall), for the reference and
	// every row.
	AlarmFall string `json:"alarm_fall"`
	// SelfError is, per ω, the largest distance between the reference's
	// object track and that of a run at twice its step (m): how far the
	// reference itself is from converged in h.
	SelfError map[string]float64 `json:"self_error,omitempty"`
	// Slip per ω, m.
	Slip map[string]float64 `json:"slip"`
}

// run executes one scene configuration to its scripted end, calling tick
// after every step, and returns its summary, its track and what the rows
// need beyond the summary.
type runResult struct {
	sum       scenario.Summary
	track     Track
	sweeps    int
	spinPen   float64
	converged int
}

func run(cfg settings.Scenario, tick func()) (runResult, error) {
	var r runResult
	sc, err := scenario.Build(cfg)
	if err != nil {
		return r, err
	}
	defer sc.Close()
	lift := math.NaN() // the lift's start, once the grip has settled
	for i, n := 0, sc.DefaultSteps(); i < n; i++ {
		st, err := sc.Step()
		if err != nil {
			r.sum = sc.Summary()
			return r, err
		}
		for _, rec := range st.Newton {
			r.sweeps += rec.PGSIterations
		}
		if st.Converged {
			r.converged++
		}
		if sc.Phase() == scenario.PhaseSpin {
			r.spinPen = math.Max(r.spinPen, st.Penetration)
		}
		// The script holds its clock until the grip settles, moving the
		// lift's start later: it is known once the run reaches it.
		t := sc.Sim.Time()
		if math.IsNaN(lift) && t >= sc.ClosedAt()-1e-9 {
			lift = t
		}
		if !math.IsNaN(lift) {
			r.track.Times = append(r.track.Times, t-lift)
			r.track.COM = append(r.track.COM, sc.ObjectInGripper())
		}
		if tick != nil {
			tick()
		}
	}
	r.sum = sc.Summary()
	return r, nil
}

// trackError returns the largest distance between tr and ref at the times
// both have (ref's step must divide tr's), and how many times matched.
func trackError(tr, ref *Track) (float64, int) {
	worst, n := 0.0, 0
	for i, t := range tr.Times {
		c, ok := ref.at(t)
		if !ok {
			continue
		}
		worst = math.Max(worst, r3.Norm(r3.Sub(tr.COM[i], c)))
		n++
	}
	return worst, n
}

// configure returns the scene of case c on top of base.
func configure(base settings.Scenario, c Case) settings.Scenario {
	cfg := base
	cfg.Omega = c.Omega
	p := &cfg.Physics
	p.Scheme, p.NewtonIterations, p.PGSIterations, p.PGSTolerance, p.TimeStep = c.Scheme, c.Newton, c.PGS, c.PGSTol, c.DT
	// A row's Elastic is what it runs in every step: the gate by the
	// body's turn (Settings.ElasticTurn) is a default for users, not a
	// case of the grid.
	p.ElasticTolerance, p.ElasticTurn = c.Elastic, 0
	if c.LinearisedStart {
		p.TurnStart = settings.TurnLinearised
	}
	return cfg
}

// RunCase runs case c and compares it with the reference track of its ω.
func RunCase(base settings.Scenario, c Case, ref *Track, tick func()) Row {
	row := Row{Scheme: c.Scheme.String(), Newton: c.Newton, PGS: c.PGS, Kind: c.Kind, DT: c.DT, Omega: c.Omega, Elastic: c.Elastic}
	res, err := run(configure(base, c), tick)
	s := res.sum
	row.MaxPenetration, row.SpinPenetration, row.Violation = s.MaxPenetration, res.spinPen, s.MaxViolation
	row.Slip, row.ForceJitter, row.NewtonMean, row.Held = s.Slip, s.ForceJitter, s.NewtonMean, s.Held
	row.PGSSweepsTotal = res.sweeps
	if s.Steps > 0 {
		row.ConvergedShare = float64(res.converged) / float64(s.Steps)
	}
	if err != nil {
		row.Error = err.Error()
		row.SlipError = math.NaN()
		return row
	}
	e, n := trackError(&res.track, ref)
	if n == 0 {
		row.Error = fmt.Sprintf("no step time of h = %g s matches the reference's", c.DT)
		e = math.NaN()
	}
	row.SlipError = e
	return row
}

// RunReference runs the reference c (its scheme, step, Newton iterations,
// PGS sweeps and tolerance and Newton on the whole residual; Kind is
// ignored).
func RunReference(base settings.Scenario, c Case, tick func()) (*Track, scenario.Summary, error) {
	c.Kind = "reference"
	res, err := run(configure(base, c), tick)
	if err != nil {
		return nil, res.sum, fmt.Errorf("reference at ω = %g rad/s, h = %g s: %w", c.Omega, c.DT, err)
	}
	return &res.track, res.sum, nil
}

// SelfError compares the reference c with the same run at twice its step.
func SelfError(base settings.Scenario, ref *Track, c Case, tick func()) (float64, error) {
	c.DT *= 2
	coarse, _, err := RunReference(base, c, tick)
	if err != nil {
		return 0, err
	}
	e, _ := trackError(coarse, ref)
	return e, nil
}

// scenarioDuration is the scripted length of the scene base, s.
func scenarioDuration(base settings.Scenario) float64 {
	sc, err := scenario.Build(base)
	if err != nil {
		return 0
	}
	defer sc.Close()
	return sc.Duration()
}
