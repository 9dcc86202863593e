package bench

import (
	"fmt"

	"softgrasp/physics"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// Table1 is how the paper's Table 1 is measured: its scene at each size,
// warmed up, then Steps steps measured with both schemes.
type Table1 struct {
	// Configs are the scenes, one per size (scenario.BenchConfigOf).
	Configs []settings.Scenario
	// Warmup is the number of fast steps before measuring; -1: the
	// scene's own (scenario.BenchWarmupSteps).
	Warmup int
	Steps  int
	// Place puts each scene on its backend before it runs (nil: the CPU).
	Place func(*physics.Simulation)
	// Describe, when set, hears what is being done ("meshing 18000
	// DOFs", "18030 DOFs"); Tick, when set, is called after every step.
	Describe func(string)
	Tick     func()
}

// WarmupSteps is the warm-up that Measure runs before each size.
func (b *Table1) WarmupSteps() int {
	if b.Warmup >= 0 || len(b.Configs) == 0 {
		return b.Warmup
	}
	return scenario.BenchWarmupSteps(b.Configs[0])
}

// Measure builds the scene at each size in turn and measures it.
func (b *Table1) Measure() (*Table, error) {
	if len(b.Configs) == 0 || b.Steps < 1 {
		return nil, fmt.Errorf("bench: %d sizes, %d steps: want at least one of each", len(b.Configs), b.Steps)
	}
	cfg := b.Configs[0]
	tab := &Table{Scenario: string(cfg.Kind), Steps: b.Steps, Newton: cfg.Physics.NewtonIterations}
	warmup := b.WarmupSteps()
	for _, cfg := range b.Configs {
		b.describe(fmt.Sprintf("meshing %d DOFs", cfg.TargetDOFs))
		if err := b.measureSize(tab, cfg, warmup); err != nil {
			return nil, err
		}
	}
	return tab, nil
}

func (b *Table1) describe(s string) {
	if b.Describe != nil {
		b.Describe(s)
	}
}

func (b *Table1) tick() {
	if b.Tick != nil {
		b.Tick()
	}
}

// measureSize builds the scene of about cfg's target DOFs, measures it
// and adds its two rows to tab.
func (b *Table1) measureSize(tab *Table, cfg settings.Scenario, warmup int) error {
	dofs := cfg.TargetDOFs
	sc, err := scenario.Build(cfg)
	if err != nil {
		return fmt.Errorf("%d DOFs: %w", dofs, err)
	}
	defer sc.Close()
	if b.Place != nil {
		b.Place(sc.Sim)
	}
	n := sc.Sim.Mesh().DOFs()
	b.describe(fmt.Sprintf("%d DOFs", n))
	fast, std, err := measureScene(sc, warmup, b.Steps, b.tick)
	if err != nil {
		return fmt.Errorf("%d DOFs: %w", n, err)
	}
	tab.add(n, fast, std)
	return nil
}

// measureScene runs warmup steps of the fast scheme, then measures steps
// steps with both schemes. Each measured step is run from the same
// snapshot (state, rigid poses, warm starts) with the fast scheme and then
// with the standard one; the simulation then goes back to the snapshot
// and continues with the fast scheme, unmeasured. So the measured fast
// step always follows a fast step, as in a run of the fast scheme, and
// the trajectory is the fast scheme's. tick is called after every step.
func measureScene(sc *scenario.Scene, warmup, steps int, tick func()) (fast, std []Sample, err error) {
	sim := sc.Sim
	fastSet := sim.Settings()
	fastSet.Scheme = settings.Fast
	stdSet := fastSet
	stdSet.Scheme = settings.Standard
	if err := sim.SetSettings(fastSet); err != nil {
		return nil, nil, err
	}
	for i := 0; i < warmup; i++ {
		if _, err := sc.Step(); err != nil {
			return nil, nil, fmt.Errorf("warm-up step %d: %w", i, err)
		}
		tick()
	}
	var snap *physics.Snapshot
	for i := 0; i < steps; i++ {
		sc.DriveBodies()
		snap = sim.Snapshot(snap)
		f, s, err := measurePair(sim, snap, fastSet, stdSet, tick)
		if err != nil {
			return nil, nil, fmt.Errorf("measured step %d: %w", i, err)
		}
		fast, std = append(fast, f), append(std, s)
	}
	return fast, std, nil
}

// measurePair runs the step of snap with the fast and the standard
// scheme, then replays it with the fast scheme to continue from there.
func measurePair(sim *physics.Simulation, snap *physics.Snapshot, fastSet, stdSet settings.Settings, tick func()) (f, s Sample, err error) {
	if f, err = measureStep(sim, fastSet); err != nil {
		return f, s, fmt.Errorf("fast scheme: %w", err)
	}
	tick()
	if err := sim.Restore(snap); err != nil {
		return f, s, err
	}
	if s, err = measureStep(sim, stdSet); err != nil {
		return f, s, fmt.Errorf("standard scheme: %w", err)
	}
	tick()
	if f.Contacts != s.Contacts {
		return f, s, fmt.Errorf("the schemes saw %d and %d contacts from the same state", f.Contacts, s.Contacts)
	}
	if err := sim.Restore(snap); err != nil {
		return f, s, err
	}
	_, err = measureStep(sim, fastSet)
	return f, s, err
}

// measureStep runs one step with settings set and returns its sample.
func measureStep(sim *physics.Simulation, set settings.Settings) (Sample, error) {
	if err := sim.SetSettings(set); err != nil {
		return Sample{}, err
	}
	st, err := sim.Step()
	if err != nil {
		return Sample{}, err
	}
	if st.Contacts == 0 {
		return Sample{}, fmt.Errorf("no contacts: the scene did not reach its squeezed state")
	}
	if len(st.Newton) != set.NewtonIterations {
		return Sample{}, fmt.Errorf("%d Newton iterations run, want exactly %d", len(st.Newton), set.NewtonIterations)
	}
	return SampleOf(st), nil
}
