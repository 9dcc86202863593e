package collide

import "testing"

// TestKindTable checks that every kind has its row (a name and a key),
// that the keys of the kinds' ranges do not meet, and that each trait
// belongs to the kind its comment names.
func TestKindTable(t *testing.T) {
	seen := map[uint64]Kind{}
	for k := Kind(0); k < NumKinds; k++ {
		info := k.Info()
		if info.Name == "" || info.key == nil {
			t.Fatalf("kind %d has no row", k)
		}
		p := Pair{Kind: k, Body: 1, Point: 2, Vertex: 3, Other: 4}
		p.Nodes[0] = 5
		key := p.Key()
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s pairs of the same indices share the key %#x", k, other, key)
		}
		seen[key] = k
	}
	traits := map[Kind]KindInfo{
		SoftVertex: {SurfacePoint: true}, RigidVertex: {OnTriangle: true},
		RigidRigid: {BetweenRigid: true}, Attached: {Bilateral: true}, SoftSoft: {},
	}
	for k, want := range traits {
		got := k.Info()
		if got.OnTriangle != want.OnTriangle || got.SurfacePoint != want.SurfacePoint || got.BetweenRigid != want.BetweenRigid || got.Bilateral != want.Bilateral {
			t.Errorf("%s: traits %+v", k, *got)
		}
	}
	if s := Kind(NumKinds).String(); s != "Kind(5)" {
		t.Errorf("an unknown kind reads %q", s)
	}
}
