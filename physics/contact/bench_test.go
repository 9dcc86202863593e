package contact

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchContacts are the problem sizes of the benchmarks: the paper's Table 1
// runs 308–482 contact groups.
var benchContacts = []int{100, 150, 200, 250, 300, 480}

// reportMs reports the mean wall time per operation in milliseconds.
func reportMs(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/op")
}

// BenchmarkPGS runs 30 cold-started sweeps (Tolerance 0) on a face problem
// where about 90 % of the contacts are pressed in, as in Table 1, on W in
// double (Solve) and in single precision (SolveSingle).
func BenchmarkPGS(b *testing.B) {
	const sweeps = 30
	for _, c := range benchContacts {
		for _, prec := range []string{"double", "single"} {
			b.Run(fmt.Sprintf("contacts=%d_sweeps=%d_%s", c, sweeps, prec), func(b *testing.B) {
				p := newFaceProblem(b, rand.New(rand.NewPCG(1, uint64(c))), c)
				W32 := make([]float32, len(p.W))
				for i, v := range p.W {
					W32[i] = float32(v)
				}
				pgs := PGS{MaxIterations: sweeps}
				lambda := make([]float64, 3*c)
				solve := func() error {
					clear(lambda)
					var err error
					if prec == "single" {
						_, err = pgs.SolveSingle(W32, c, p.s, p.deltaFree, p.mu, lambda)
					} else {
						_, err = pgs.Solve(p.W, c, p.s, p.deltaFree, p.mu, lambda)
					}
					return err
				}
				if err := solve(); err != nil {
					b.Fatal(err)
				}
				active := 0
				for _, st := range pgs.States {
					if st != Separated {
						active++
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := solve(); err != nil {
						b.Fatal(err)
					}
				}
				reportMs(b)
				b.ReportMetric(float64(active)/float64(c), "active")
			})
		}
	}
}

func BenchmarkRebuildW(b *testing.B) {
	for _, c := range benchContacts {
		b.Run(fmt.Sprintf("contacts=%d", c), func(b *testing.B) {
			p := newFaceProblem(b, rand.New(rand.NewPCG(2, uint64(c))), c)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := RebuildW(p.W, p.WH, p.C); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}

// BenchmarkRebuildWLower fills only the lower block triangle, all that
// PGS.Solve reads: the per-Newton-iteration rebuild of the fast scheme.
func BenchmarkRebuildWLower(b *testing.B) {
	for _, c := range benchContacts {
		b.Run(fmt.Sprintf("contacts=%d", c), func(b *testing.B) {
			p := newFaceProblem(b, rand.New(rand.NewPCG(2, uint64(c))), c)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := RebuildWLower(p.W, p.WH, p.C); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}

// BenchmarkCorrectP applies the forces of a converged PGS solve of the face
// problem (about 90 % of the contacts active).
func BenchmarkCorrectP(b *testing.B) {
	for _, c := range benchContacts {
		b.Run(fmt.Sprintf("contacts=%d", c), func(b *testing.B) {
			p := newFaceProblem(b, rand.New(rand.NewPCG(3, uint64(c))), c)
			pgs := PGS{MaxIterations: 30}
			n := 3 * c
			lambda := make([]float64, n)
			if _, err := pgs.Solve(p.W, c, p.s, p.deltaFree, p.mu, lambda); err != nil {
				b.Fatal(err)
			}
			pOut, pFree, work := make([]float64, n), make([]float64, n), make([]float64, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := CorrectP(pOut, pFree, p.WH, p.C, lambda, p.s, work); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}

// BenchmarkRebuildWLowerWork is RebuildWLower with the AVX2 kernel (where
// available): the CPU backend's rebuild.
func BenchmarkRebuildWLowerWork(b *testing.B) {
	for _, c := range benchContacts {
		b.Run(fmt.Sprintf("contacts=%d", c), func(b *testing.B) {
			p := newFaceProblem(b, rand.New(rand.NewPCG(2, uint64(c))), c)
			work := make([]float64, 9*c)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := RebuildWLowerWork(p.W, p.WH, p.C, work); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}

// BenchmarkRebuildWLowerSingle is BenchmarkRebuildWLowerWork storing W in
// single precision.
func BenchmarkRebuildWLowerSingle(b *testing.B) {
	for _, c := range benchContacts {
		b.Run(fmt.Sprintf("contacts=%d", c), func(b *testing.B) {
			p := newFaceProblem(b, rand.New(rand.NewPCG(2, uint64(c))), c)
			W := make([]float32, len(p.W))
			work := make([]float64, 18*c)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := RebuildWLowerSingle(W, p.WH, p.C, work); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}
