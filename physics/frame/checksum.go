package frame

import "math"

// ComputeChecksum hashes every field that a frame's Checksum covers
// (FNV-1a over their bits). The physics goroutine stores it when it
// publishes; a reader that recomputes the same value knows it saw the
// frame whole, never half-written.
func (f *Frame) ComputeChecksum() uint64 {
	h := fnv{sum: 14695981039346656037}
	h.u64(f.Seq)
	h.u64(f.SceneVersion)
	h.u64(f.ConfigVersion)
	h.f64(f.Time)
	h.f32s(f.Surface)
	h.f32s(f.Displacement)
	h.f32s(f.VonMises)
	for i := range f.BodyPoses {
		h.f32s(f.BodyPoses[i][:])
	}
	for i := range f.Contacts {
		c := &f.Contacts[i]
		h.f32s(c.Point[:])
		h.f32s(c.Normal0[:])
		h.f32s(c.Normal[:])
		h.f32s(c.ForceN[:])
		h.f32s(c.ForceT[:])
		h.u64(uint64(math.Float32bits(c.Deviation)) | uint64(c.State)<<32)
	}
	h.f32s(f.GhostSurface)
	h.str(f.Message)
	s := &f.Stats
	h.str(s.Scheme)
	h.str(s.Phase)
	h.str(s.Error)
	h.str(s.Backend)
	h.str(s.ScriptStop)
	h.bools(s.Paused, s.Held, s.DeviceTimed, s.FrictionOverridden, s.Gripping)
	h.u64(uint64(s.Contacts))
	h.u64(uint64(s.NewtonIterations))
	h.u64(uint64(s.PGSIterations))
	h.u64(uint64(s.UnconvergedSolves))
	for _, v := range s.MS.Values() {
		h.f64(v)
	}
	for _, v := range [...]float64{s.FrictionOverride, s.Penetration, s.Slip, s.GripForce, s.GripLeft, s.GripRight, s.GripTarget, s.StepRate, s.RealtimeFactor, s.DeviceKernel, s.DeviceTransfer} {
		h.f64(v)
	}
	ab := &s.AB
	h.bools(ab.On)
	h.str(ab.Changes)
	h.str(ab.Error)
	for _, v := range [...]float64{ab.NodeDistance, ab.MaxNodeDistance, ab.Penetration} {
		h.f64(v)
	}
	for k := range s.DirectionChange {
		h.f64(s.DirectionChange[k])
		h.f64(s.PositionChange[k])
		h.f64(s.ElasticResidual[k])
		h.f64(s.ContactResidual[k])
	}
	g := &f.Gripper
	h.bools(g.Present, g.Scripted, g.Path)
	for _, v := range [...]float64{g.Position.X, g.Position.Y, g.Position.Z, g.Rotation.Real, g.Rotation.Imag,
		g.Rotation.Jmag, g.Rotation.Kmag, g.Opening, g.Target.X, g.Target.Y, g.Target.Z, g.TargetOpening} {
		h.f64(v)
	}
	return h.sum
}

// str hashes a string's length and bytes.
func (h *fnv) str(s string) {
	h.u64(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h.u64(uint64(s[i]))
	}
}

// bools hashes flags as one word.
func (h *fnv) bools(bs ...bool) {
	w := uint64(0)
	for i, b := range bs {
		if b {
			w |= 1 << i
		}
	}
	h.u64(w)
}

// fnv is a 64-bit FNV-1a hash fed eight bytes at a time.
type fnv struct{ sum uint64 }

func (h *fnv) u64(v uint64) {
	for i := 0; i < 8; i++ {
		h.sum ^= v & 0xff
		h.sum *= 1099511628211
		v >>= 8
	}
}

func (h *fnv) f64(v float64) { h.u64(math.Float64bits(v)) }

func (h *fnv) f32s(v []float32) {
	for _, x := range v {
		h.u64(uint64(math.Float32bits(x)))
	}
}
