package scenario

import "math"

// StateChecksum hashes the soft body's state: FNV-1a 64 over the float64
// bits of its positions q then its velocities v, eight bytes each, low
// byte first. Two runs with the same checksum ended in the same state to
// the bit; the recordings (physics/record) compare replays by it.
func (sc *Scene) StateChecksum() uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for _, xs := range [2][]float64{sc.Sim.Positions(), sc.Sim.Velocities()} {
		for _, x := range xs {
			b := math.Float64bits(x)
			for i := 0; i < 8; i++ {
				h ^= b & 0xff
				h *= prime
				b >>= 8
			}
		}
	}
	return h
}
