package scenario

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// Phase names a stage of the grasp-and-rotate script.
type Phase string

const (
	PhaseSettle   Phase = "settle"   // the object settles on the floor
	PhaseApproach Phase = "approach" // the open gripper descends around it
	PhaseClose    Phase = "close"    // the jaws close until they grip (or to the squeeze opening)
	PhaseLift     Phase = "lift"     // the gripper lifts the object
	PhaseSpin     Phase = "spin"     // the gripper spins about its own axis at ω
	PhaseHold     Phase = "hold"     // the gripper holds still
	PhaseManual   Phase = "manual"   // no script: commands drive the gripper
	PhasePath     Phase = "path"     // the gripper follows a scene file's path
	PhaseRefused  Phase = "refused"  // the object cannot be grasped: the jaws stay open above it
	PhaseStopped  Phase = "stopped"  // the grasp failed: the jaws open where they are
	PhaseLower    Phase = "lower"    // a repeating grasp sets the object down where it was lifted
	PhaseRelease  Phase = "release"  // the jaws open around it
	PhaseRise     Phase = "rise"     // the open gripper rises over it, to grasp it again
)

// graspScript is the scripted driver of the grasp-and-rotate scene: a
// timeline of target poses and openings. Targets move smoothly
// (smoothstep in position and opening; the spin ramps ω up over
// spinRamp), so the kinematic jaws never jump.
type graspScript struct {
	phases []timedPhase

	// The script assumes an upright gripper (its own axis along the world
	// z): it goes to the point base in x and y, heading yaw0.
	base                r3.Vec  // x, y of the grasp centre, m
	yaw0                float64 // gripper heading about the world z axis at the start, rad
	zHigh, zGrasp, lift float64 // heights of the grasp centre, m
	openWide, openGrip  float64 // openings, m
	omega, spinRamp     float64 // rad/s, s

	// follow keeps the grasp aimed at the object while the jaws are
	// still open above it (Scene.followObject): aimedAt is the box of the
	// object's nodes the aim was last taken from (nil: not yet seen),
	// lastBox the box at the last step, waited how long the script has
	// waited for it to come to rest, s.
	follow  bool
	aimedAt *r3.Box
	lastBox r3.Box
	waited  float64

	// path, when not empty, replaces the timeline above: the gripper
	// follows a custom scene's waypoints (newPathScript), the first of
	// them at pathStart + its time.
	path      []settings.Waypoint
	pathStart float64

	// grip closes the jaws by force (GripControl) from the start of the
	// close phase instead of to openGrip: the clock holds at the end of
	// the close until the grip settles (gripped), for at most
	// gripTimeout from the close's start (closing, s).
	grip    bool
	gripped bool
	closing float64
	// loop sets the object down after the final hold, opens, rises, and
	// the scene starts the script again (settings.LoopRepeat).
	loop bool
	// setDownAt is the time in the lower at which the floor took the
	// object (Scene.holdForGrip, setDownShare), 0 before: from then on the
	// jaws stay at that height until they release it.
	setDownAt float64
	// releaseOpening is what a repeating script's jaws open to at least
	// from the release on: the opening they gripped at when the release
	// began plus the approach's gap each side (Scene.holdForGrip), 0
	// before. The aim's opening was planned for the object as it lay; one
	// that turned or slid in the jaws can be wider across them now, and
	// opening to the planned width would squeeze it.
	releaseOpening float64
	// stopped, when set, says why the script stopped at stoppedAt (or,
	// with the phase refused, why it never started): from then on the
	// jaws open to openWide where they are (stopPose).
	stopped   string
	stoppedAt float64
	stopPose  rigid.Pose
	refused   bool
}

type timedPhase struct {
	phase      Phase
	start, end float64
}

// newGraspScript lays out the timeline of gripper g grasping the object at
// aim (AimAtObject): it comes down from above the object's top with the
// jaws open to the aim's opening, closes them at the aim until they grip
// (the close phase lasts until the grip settles), lifts, spins and holds;
// repeating (cfg.GraspLoop), it then sets the object down, opens and
// rises, and the scene runs it again.
func newGraspScript(cfg settings.Scenario, g rigid.Gripper, aim Aim) *graspScript {
	s := graspScript{
		base: aim.Pose.Position, yaw0: aim.Yaw,
		zHigh: aim.Top + g.JawHeight/2 + 5e-3, zGrasp: aim.Pose.Position.Z, lift: 0.03,
		openWide: aim.Opening, openGrip: aim.Opening, grip: true, loop: cfg.GraspLoop == settings.LoopRepeat,
	}
	return scheduled(cfg, s, phaseDurations{settle: 0.1, approach: 0.4, close: 0.1, hold: 0.2, lift: 0.5})
}

// newRefusedScript is the script of an object that cannot be grasped
// (why): the gripper waits open (to open) above the point base, heading
// yaw, for refusedFor seconds, in the phase refused.
func newRefusedScript(base r3.Vec, yaw, open float64, why string) *graspScript {
	s := &graspScript{base: base, yaw0: yaw, zHigh: base.Z, zGrasp: base.Z, openWide: open, openGrip: open,
		stopped: why, refused: true, stopPose: rigid.Pose{Position: base, Rotation: spinAbout(yaw)}}
	s.phases = []timedPhase{{PhaseRefused, 0, refusedFor}}
	return s
}

// refusedFor is how long a refused script lasts, s, and stopFor how long
// a stopped one takes to open its jaws.
const (
	refusedFor = 0.5
	stopFor    = 0.5
)

// stop ends the script at time t, where the command of t has the gripper
// (its pose held, its jaws opening), for the reason why.
func (s *graspScript) stop(t float64, why string) {
	if s.stopped != "" {
		return
	}
	s.stopPose = s.at(t).Target
	s.stopped, s.stoppedAt = why, t
	kept := s.phases[:0]
	for _, p := range s.phases {
		if p.start < t {
			p.end = math.Min(p.end, t)
			kept = append(kept, p)
		}
	}
	s.phases = append(kept, timedPhase{PhaseStopped, t, t + stopFor})
}

// scheduled completes s for cfg (its ω, spun up over 0.1 s, for the
// spin's length) and lays its phases out with the durations d.
func scheduled(cfg settings.Scenario, s graspScript, d phaseDurations) *graspScript {
	s.omega, s.spinRamp = cfg.Omega, 0.1
	d.spin = spinDuration(cfg)
	s.schedule(d)
	return &s
}

// spinDuration is how long the spin phase turns at full speed: SpinTurns
// turns at ω when set, else one second.
func spinDuration(cfg settings.Scenario) float64 {
	if cfg.SpinTurns > 0 && cfg.Omega != 0 {
		return cfg.SpinTurns * 2 * math.Pi / math.Abs(cfg.Omega)
	}
	return 1.0
}

// phaseDurations are the lengths of a script's phases, s.
type phaseDurations struct {
	settle, approach, close, hold, lift, spin float64
}

// schedule lays the phases out one after the other from t = 0: settle,
// approach, close, hold, lift, spin (after its ramp) and a final hold of
// half a second.
func (s *graspScript) schedule(d phaseDurations) {
	t := 0.0
	for _, p := range []struct {
		phase Phase
		d     float64
	}{
		{PhaseSettle, d.settle}, {PhaseApproach, d.approach}, {PhaseClose, d.close}, {PhaseHold, d.hold},
		{PhaseLift, d.lift}, {PhaseSpin, d.spin + s.spinRamp}, {PhaseHold, 0.5},
	} {
		s.phases = append(s.phases, timedPhase{p.phase, t, t + p.d})
		t += p.d
	}
	if s.loop {
		for _, p := range []timedPhase{{PhaseLower, 0, 0.5}, {PhaseRelease, 0, 0.3}, {PhaseRise, 0, 0.4}} {
			s.phases = append(s.phases, timedPhase{p.phase, t, t + p.end})
			t += p.end
		}
	}
}

// delay moves the script to start at time t0, for a script started again
// mid-run.
func (s *graspScript) delay(t0 float64) {
	s.pathStart += t0
	for i := range s.phases {
		s.phases[i].start += t0
		s.phases[i].end += t0
	}
}

// carries reports whether the jaws carry the object at t: from the
// lift's start through the spin and the hold after it, not while a
// repeating script sets it down, releases it or rises.
func (s *graspScript) carries(t float64) bool {
	if t <= s.timeOf(PhaseLift, true) {
		return false
	}
	switch s.phaseAt(t) {
	case PhaseLift, PhaseSpin, PhaseHold:
		return true
	}
	return false
}

// duration is the length of the whole script, s.
func (s *graspScript) duration() float64 { return s.phases[len(s.phases)-1].end }

// closedAt is the time the jaws reach the squeeze opening (a gripping
// script's: the start of the lift); on a path, the time of the first
// waypoint at its smallest opening.
func (s *graspScript) closedAt() float64 {
	if len(s.path) > 0 {
		k := 0
		for i, w := range s.path {
			if w.Opening < s.path[k].Opening {
				k = i
			}
		}
		return s.pathStart + s.path[k].Time
	}
	if s.grip {
		// A force-controlled grip still settles during the hold after the
		// close: the grasp has closed when the lift starts.
		return s.timeOf(PhaseLift, true)
	}
	return s.timeOf(PhaseClose, false)
}

// releasedAt is the time a path's jaws start to open again after
// closedAt (the waypoint before the first wider one); for a repeating
// grasp the start of its release phase; +Inf for the other grasp scripts,
// which never let go.
func (s *graspScript) releasedAt() float64 {
	closed := s.closedAt() - s.pathStart
	for i := 1; i < len(s.path); i++ {
		if s.path[i-1].Time >= closed && s.path[i].Opening > s.path[i-1].Opening {
			return s.pathStart + s.path[i-1].Time
		}
	}
	if s.loop {
		return s.timeOf(PhaseRelease, true)
	}
	return math.Inf(1)
}

// spinStart and spinEnd bound the spin phase.
func (s *graspScript) spinStart() float64 { return s.timeOf(PhaseSpin, true) }
func (s *graspScript) spinEnd() float64   { return s.timeOf(PhaseSpin, false) }

func (s *graspScript) timeOf(p Phase, start bool) float64 {
	for _, tp := range s.phases {
		if tp.phase == p {
			if start {
				return tp.start
			}
			return tp.end
		}
	}
	return math.Inf(1)
}

// phaseAt returns the phase at time t (the last phase after the end).
func (s *graspScript) phaseAt(t float64) Phase {
	for _, tp := range s.phases {
		if t < tp.end {
			return tp.phase
		}
	}
	return s.phases[len(s.phases)-1].phase
}

// at returns the command of time t.
func (s *graspScript) at(t float64) GripperCommand {
	if len(s.path) > 0 {
		return s.pathAt(t)
	}
	if s.stopped != "" && t >= s.stoppedAt {
		return GripperCommand{Target: s.stopPose, Opening: s.openWide}
	}
	z := s.zHigh
	z = mix(z, s.zGrasp, s.progress(PhaseApproach, t))
	z = mix(z, s.zGrasp+s.lift, s.progress(PhaseLift, t))
	lower := s.progress(PhaseLower, t)
	if s.setDownAt > 0 && t > s.setDownAt {
		lower = s.progress(PhaseLower, s.setDownAt) // the floor took the object there
	}
	z = mix(z, s.zGrasp, lower)
	z = mix(z, s.zHigh, s.progress(PhaseRise, t))
	opening := mix(s.openWide, s.openGrip, s.progress(PhaseClose, t))
	if s.loop && t >= s.timeOf(PhaseRelease, true) {
		opening = math.Max(opening, s.releaseOpening)
	}
	return GripperCommand{
		Target: rigid.Pose{
			Position: r3.Vec{X: s.base.X, Y: s.base.Y, Z: z},
			Rotation: spinAbout(s.yaw0 + s.spinAngle(t)),
		},
		Opening: opening,
		Grip:    s.grip && t >= s.timeOf(PhaseClose, true) && t < s.timeOf(PhaseRelease, true),
	}
}

// progress returns the smoothstep progress of phase p at time t, 0 before
// it and 1 after it.
func (s *graspScript) progress(p Phase, t float64) float64 {
	t0, t1 := s.timeOf(p, true), s.timeOf(p, false)
	if t <= t0 {
		return 0
	}
	if t >= t1 {
		return 1
	}
	u := (t - t0) / (t1 - t0)
	return u * u * (3 - 2*u)
}

// spinAngle integrates ω(t), a trapezoid: it ramps linearly from 0 to ω
// over spinRamp, holds, and ramps back to 0 over the last spinRamp of the
// spin phase, so the jaws never see an infinite angular acceleration.
func (s *graspScript) spinAngle(t float64) float64 {
	t0, t1 := s.spinStart(), s.spinEnd()
	T, r := t1-t0, s.spinRamp
	tau := math.Min(t, t1) - t0
	switch {
	case tau <= 0:
		return 0
	case tau < r:
		return s.omega * tau * tau / (2 * r)
	case tau <= T-r:
		return s.omega * (tau - r/2)
	default:
		return s.omega*(T-r) - s.omega*(T-tau)*(T-tau)/(2*r)
	}
}

func mix(a, b, u float64) float64 { return a + (b-a)*u }

// newPathScript is the script of a custom scene's gripper path
// (settings.Waypoint, checked by settings.CheckPath): one phase, path,
// from t = 0 to the later of the last waypoint's time and the scene's
// Duration.
func newPathScript(cfg settings.Scenario) *graspScript {
	path := cfg.GripperPath
	end := math.Max(path[len(path)-1].Time, cfg.Duration)
	return &graspScript{path: path, phases: []timedPhase{{PhasePath, 0, end}}}
}

// pathAt is the command of time t on the path: between two waypoints
// the grasp centre, the heading and the opening each move by the
// smoothstep of the time's progress from one to the other; before the
// first waypoint and after the last, the gripper is at it.
func (s *graspScript) pathAt(t float64) GripperCommand {
	p, t := s.path, t-s.pathStart
	i := sort.Search(len(p), func(i int) bool { return p[i].Time > t })
	a, b, u := p[max(i-1, 0)], p[min(i, len(p)-1)], 0.0
	if i > 0 && i < len(p) {
		u = (t - a.Time) / (b.Time - a.Time)
		u = u * u * (3 - 2*u)
	}
	deg := math.Pi / 180
	return GripperCommand{
		Target: rigid.Pose{
			Position: r3.Vec{X: mix(a.Position[0], b.Position[0], u), Y: mix(a.Position[1], b.Position[1], u), Z: mix(a.Position[2], b.Position[2], u)},
			Rotation: spinAbout(mix(a.Yaw, b.Yaw, u) * deg),
		},
		Opening: mix(a.Opening, b.Opening, u),
	}
}

// pathSpeeds returns the largest speeds the path asks of the gripper:
// of the grasp centre (m/s), of its heading (rad/s) and of the opening
// (m/s). A smoothstep's fastest point moves at 1.5 times its segment's
// mean.
func (s *graspScript) pathSpeeds() (linear, angular, opening float64) {
	for i := 1; i < len(s.path); i++ {
		a, b := s.path[i-1], s.path[i]
		k := 1.5 / (b.Time - a.Time)
		d := r3.Vec{X: b.Position[0] - a.Position[0], Y: b.Position[1] - a.Position[1], Z: b.Position[2] - a.Position[2]}
		linear = math.Max(linear, k*r3.Norm(d))
		angular = math.Max(angular, k*math.Abs(b.Yaw-a.Yaw)*math.Pi/180)
		opening = math.Max(opening, k*math.Abs(b.Opening-a.Opening))
	}
	return linear, angular, opening
}
