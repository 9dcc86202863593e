package scenario

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// The stack scene (settings.Stack): two soft cubes of edge ObjectSize/2,
// one soft body of two parts, the upper one resting on the lower one on
// the floor. Their contact is soft against soft (collide.SoftSoft): each
// pair's compliance is the sum of both cubes' (Eq. 16), the force pushes
// them apart (Eq. 14). After settings.StackSettle seconds at rest, when
// the forces are measured (StackResult), flat jaws close on both cubes
// across the joint, squeeze them together, lift the stack and spin it.

// stackCubes builds the two cubes, each about half of the DOF budget, the
// lower one with its bottom at z = 0 and the upper one the contact
// distance above it, both centred in x and y.
func stackCubes(cfg settings.Scenario) (object, meshInfo, error) {
	a := cfg.ObjectSize / 2
	d := cfg.Physics.ContactDistance
	cubes := &mesh.TetMesh{}
	for _, z := range []float64{0, a + d} {
		m, err := mesh.BoxForDOFs(r3.Vec{X: a, Y: a, Z: a}, max(cfg.TargetDOFs/2, 60))
		if err != nil {
			return object{}, meshInfo{}, err
		}
		b := m.Bounds()
		shift := r3.Vec{X: -(b.Min.X + b.Max.X) / 2, Y: -(b.Min.Y + b.Max.Y) / 2, Z: z - b.Min.Z}
		appendPart(cubes, m, shift)
	}
	return object{mesh: cubes}, meshInfo{name: fmt.Sprintf("two soft cubes %.0f mm, stacked", a*1e3)}, nil
}

// stackSqueezeShare bounds the stack's squeeze per side as a share of a
// cube's width: 1 mm a side on the 20 mm cubes (10 % across). The grasp's
// 15 % a side (30 % across) left the stack's corotational elements at
// strains where the 5 Newton iterations and 150 sweeps of a step no
// longer converged, and the grip crept from 15 to 38 N through the spin.
const stackSqueezeShare = 0.05

// appendPart adds mesh m, moved by shift, to all as a part of its own
// (its node indices offset by the nodes already there).
func appendPart(all, m *mesh.TetMesh, shift r3.Vec) {
	n := len(all.Nodes)
	for _, x := range m.Nodes {
		all.Nodes = append(all.Nodes, r3.Add(x, shift))
	}
	for _, t := range m.Tets {
		all.Tets = append(all.Tets, [4]int{t[0] + n, t[1] + n, t[2] + n, t[3] + n})
	}
}

// newStackScript lays out the stack's timeline: settings.StackSettle at
// rest, then the squeeze scene's close, hold, lift and spin at the joint
// between the cubes (half the stack's height).
func newStackScript(cfg settings.Scenario, height, open, closed float64) *graspScript {
	z := height / 2
	return scheduled(cfg, graspScript{zHigh: z, zGrasp: z, lift: squeezeLift, openWide: open, openGrip: closed},
		phaseDurations{settle: settings.StackSettle, approach: 0, close: 0.2, hold: 0.05, lift: 0.2})
}

// squeezes reports whether the scene closes flat jaws along x at the
// origin (the squeeze and stack scenes) rather than aiming a grasp.
func (sc *Scene) squeezes() bool {
	return sc.cfg.Kind == settings.Squeeze || sc.cfg.Kind == settings.Stack
}

// StackResult is the stack at rest, at the end of its settle, before the
// jaws close: the normal force between the cubes against the upper one's
// weight, the floor's against both, and how still they are.
type StackResult struct {
	PartForce   float64 `json:"part_force"`   // Σ λn between the cubes, N
	UpperWeight float64 `json:"upper_weight"` // the upper cube's m·g, N
	FloorForce  float64 `json:"floor_force"`  // Σ λn of the floor, N
	Weight      float64 `json:"weight"`       // both cubes' m·g, N
	// Penetration is the deepest overlap of the last 0.1 s of the settle,
	// between the cubes or with the floor, m.
	Penetration float64 `json:"penetration"`
	// Drift is the larger of the two cubes' mean speeds (mass-weighted
	// velocity) at the end of the settle, m/s.
	Drift float64 `json:"drift"`
	// PartPairs counts the soft–soft pairs of the last settle step.
	PartPairs int `json:"part_pairs"`
}

// stackMetrics is what observe keeps of the settle.
type stackMetrics struct {
	at       StackResult
	measured bool
}

// observeStack records the stack at rest: every step of the settle
// overwrites it, so the last one stays.
func (sc *Scene) observeStack(st *physics.StepStats) {
	t := sc.Sim.Time()
	if t > settings.StackSettle+1e-9 {
		return
	}
	m := &sc.metrics.stack
	g := r3.Norm(sc.Config().Physics.Gravity)
	upper, lower := sc.partMeans()
	m.at.PartForce = st.PartNormalForce
	m.at.PartPairs = st.PartPairs
	m.at.UpperWeight = sc.partMass[1] * g
	m.at.Weight = sc.total * g
	if len(st.BodyNormalForce) > FloorBody {
		m.at.FloorForce = st.BodyNormalForce[FloorBody]
	}
	if t > settings.StackSettle-0.1 {
		m.at.Penetration = math.Max(m.at.Penetration, st.Penetration)
	}
	m.at.Drift = math.Max(r3.Norm(upper), r3.Norm(lower))
	m.measured = true
}

// partMeans returns the mass-weighted mean velocities of the upper and
// the lower part of the soft body.
func (sc *Scene) partMeans() (upper, lower r3.Vec) {
	v := sc.Sim.Velocities()
	var sum [2]r3.Vec
	for i, m := range sc.mass {
		p := sc.Sim.Model().NodePart(i)
		if p > 1 {
			continue
		}
		sum[p] = r3.Add(sum[p], r3.Scale(m, r3.Vec{X: v[3*i], Y: v[3*i+1], Z: v[3*i+2]}))
	}
	return r3.Scale(1/sc.partMass[1], sum[1]), r3.Scale(1/sc.partMass[0], sum[0])
}

// stackResult is the settle's measurements, nil before the first step.
func (sc *Scene) stackResult() *StackResult {
	if !sc.metrics.stack.measured {
		return nil
	}
	r := sc.metrics.stack.at
	return &r
}
