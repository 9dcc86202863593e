package scenario

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
)

// TestContactRecordsAtRest reads out the contacts of a soft box at rest on
// the floor: their normal forces sum to the floor's force in the step's
// stats and to the box's weight, each pushing contact sits at the contact
// distance with the floor's normal, each friction force lies in Coulomb's
// cone, and the friction forces cancel (no net sideways force at rest).
func TestContactRecordsAtRest(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Drop)
	cfg.TargetDOFs = 800
	sc := runSceneOpen(t, cfg)
	defer sc.Close()
	recs := sc.Sim.AppendContacts(nil)
	if len(recs) != len(sc.Sim.Pairs()) || len(recs) == 0 {
		t.Fatalf("%d records for %d pairs", len(recs), len(sc.Sim.Pairs()))
	}
	d := cfg.Physics.ContactDistance
	mu := cfg.Physics.Friction
	sum, worstGap, pushing := 0.0, 0.0, 0
	var friction r3.Vec
	for _, r := range recs {
		if r.Body != FloorBody {
			t.Fatalf("a contact against body %d at rest on the floor", r.Body)
		}
		sum += r.NormalForce
		friction = r3.Add(friction, r.Friction)
		if f := r3.Norm(r.Friction); f > mu*r.NormalForce*(1+1e-9)+1e-15 {
			t.Fatalf("friction %.4g N outside the cone μ·λn = %.4g N", f, mu*r.NormalForce)
		}
		if r.NormalForce > 0 {
			pushing++
			worstGap = math.Max(worstGap, math.Abs(r.Gap-d))
			if r.Normal.Z < 1-1e-9 {
				t.Fatalf("a floor contact's normal %v is not +z", r.Normal)
			}
		} else if r.Gap < d*(1-1e-6) {
			t.Fatalf("a contact without force is closer (%.3g m) than the contact distance %.3g m", r.Gap, d)
		}
	}
	st := sc.Sim.Stats()
	weight := sc.Summary().Drop.Weight
	t.Logf("%d contacts, %d pushing: Σλn %.6f N (stats %.6f N, weight %.6f N), |Σ friction| %.3g N, worst |gap − d| %.3g m",
		len(recs), pushing, sum, st.BodyNormalForce[FloorBody], weight, r3.Norm(friction), worstGap)
	if math.Abs(sum-st.BodyNormalForce[FloorBody]) > 1e-12*sum {
		t.Fatalf("Σλn = %.12g N, the step's floor force %.12g N", sum, st.BodyNormalForce[FloorBody])
	}
	if math.Abs(sum-weight) > 0.02*weight {
		t.Fatalf("Σλn = %.5f N for a weight of %.5f N", sum, weight)
	}
	// Measured: gaps within 1.5e-17 m of d, a net friction of 2e-15 N;
	// the bounds are PGS's relative tolerance (1e-6) on the gap and 1e-9
	// of the load on the net friction.
	if worstGap > 1e-6*d {
		t.Fatalf("a pushing contact's gap is %.3g m off the contact distance %.3g m", worstGap, d)
	}
	if f := r3.Norm(friction); f > 1e-9*sum {
		t.Fatalf("a net friction force of %.3g N at rest, normal force %.3g N", f, sum)
	}
}

// TestContactRecordsCarryDetectionNormals: during the spin each record's
// Normal0 is its pair's normal from collision detection (the start of the
// step) carried by the body's rotation over the step, ω·h about the
// gripper's axis for a jaw and none for the floor, and Normal the last
// Newton iteration's.
func TestContactRecordsCarryDetectionNormals(t *testing.T) {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 600
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for sc.Phase() != PhaseSpin || sc.Sim.Time() < 2.0 {
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
	}
	recs := sc.Sim.AppendContacts(nil)
	pairs := sc.Sim.Pairs()
	step := math.Abs(cfg.Omega) * sc.Sim.Settings().TimeStep
	carried, turned := 0.0, 0.0
	for a, r := range recs {
		n := r3.Unit(pairs[a].Normal)
		angle := math.Acos(math.Max(-1, math.Min(1, r3.Dot(r.Normal0, n))))
		if r.Body == FloorBody && angle > 1e-12 || angle > step+1e-9 {
			t.Fatalf("contact %d (body %d): Normal0 %v is %.3g rad from the detection normal %v; the body turned %.3g rad over the step",
				a, r.Body, r.Normal0, angle, n, step)
		}
		carried = math.Max(carried, angle)
		turned = math.Max(turned, r3.Norm(r3.Sub(r.Normal, r.Normal0)))
	}
	if len(recs) == 0 || carried < 0.5*step {
		t.Fatalf("%d contacts, largest carried turn %.3g rad: the jaws turned %.3g rad over the step", len(recs), carried, step)
	}
	t.Logf("%d contacts, detection normals carried by up to %.3g rad (the step's turn %.3g), last iteration's turn |n − n0| up to %.3g",
		len(recs), carried, step, turned)
}

// TestContactRecordsBetweenParts reads out the stack at rest: the contacts
// between the two cubes have no rigid body (−1), name the part of their
// soft vertex, and those that push sit at the joint with normals from the
// other cube towards it (up for the upper cube's vertices, down for the
// lower's) and keep the contact distance, the others no closer; their normal
// forces sum to the step's force between the parts.
func TestContactRecordsBetweenParts(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Stack)
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for sc.Sim.Time() < settings.StackSettle-1e-9 {
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
	}
	d := cfg.Physics.ContactDistance
	joint := cfg.ObjectSize/2 + 2*d // the lower cube's top: lifted by d onto the floor, the upper d above it
	sum, parts, worstGap := 0.0, 0, 0.0
	for _, r := range sc.Sim.AppendContacts(nil) {
		if r.Body >= 0 {
			continue
		}
		parts++
		sum += r.NormalForce
		want := 1.0
		if r.Part == 0 {
			want = -1
		}
		// A rim vertex's normal is the direction from its closest point
		// on the other cube's edge across the 10 µm gap, tilted by the
		// cubes' unequal bulge under their weight: measured up to
		// 0.084 rad (4.8°) on the rims, exactly vertical inside the faces;
		// the bound is 10°.
		if r.Kind.String() != "soft-soft" || (r.NormalForce > 0 && want*r.Normal.Z < math.Cos(10*math.Pi/180)) {
			t.Fatalf("a %s contact of part %d with normal %v, want soft-soft along %+g z", r.Kind, r.Part, r.Normal, want)
		}
		if r.NormalForce > 0 && math.Abs(r.Point.Z-joint) > 0.5e-3 {
			t.Fatalf("a contact pushing the cubes apart at z = %.4f m, the joint is at %.4f m", r.Point.Z, joint)
		}
		// Measured: gaps within 1.6e-8 m of d (0.16 %: PGS's tolerance
		// on pairs whose both sides deform); the bound is 1 % of d.
		if r.NormalForce > 0 {
			worstGap = math.Max(worstGap, math.Abs(r.Gap-d))
		}
		if r.NormalForce > 0 && math.Abs(r.Gap-d) > 1e-2*d {
			t.Fatalf("a pushing contact between the cubes has gap %.4g m, the contact distance is %.4g m", r.Gap, d)
		}
		if r.NormalForce == 0 && r.Gap < d*(1-1e-2) {
			t.Fatalf("a contact between the cubes without force is closer (%.3g m) than the contact distance %.3g m", r.Gap, d)
		}
	}
	st := sc.Sim.Stats()
	t.Logf("%d contacts between the cubes (stats %d), Σλn %.6f N (stats %.6f N), worst pushing |gap − d| %.3g m", parts, st.PartPairs, sum, st.PartNormalForce, worstGap)
	if parts == 0 || parts != st.PartPairs || math.Abs(sum-st.PartNormalForce) > 1e-12*sum {
		t.Fatalf("%d records, Σλn %.12g N; the step has %d pairs and %.12g N", parts, sum, st.PartPairs, st.PartNormalForce)
	}
}
