package sparse

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"
)

// Benchmark sizes: lattices of 1000, 6000 and 12000 nodes (3k, 18k and 36k
// DOFs, the paper's Table 1 range), with contact rows clustered on a patch
// of the x = 0 face as in a grasp (alternating vertex and triangle pairs,
// 3 rows each).
var benchGrids = map[int]testGrid{
	3000:  {10, 10, 10},
	18000: {30, 20, 10},
	36000: {30, 20, 20},
}

var benchComplianceSizes = []struct{ dofs, rows int }{
	{3000, 600}, {18000, 900}, {36000, 1450},
}

var benchMatrices sync.Map // testGrid → *SymCSC; assembling the largest takes a while

func benchMatrix(g testGrid) *SymCSC {
	if A, ok := benchMatrices.Load(g); ok {
		return A.(*SymCSC)
	}
	A := g.matrix(1)
	benchMatrices.Store(g, A)
	return A
}

func benchFactor(b *testing.B, dofs int, ord ordering) (*Factor, testGrid) {
	b.Helper()
	g := benchGrids[dofs]
	A := benchMatrix(g)
	f, err := analyze(A, ord)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(f.Free)
	if err := f.Factorize(A); err != nil {
		b.Fatal(err)
	}
	return f, g
}

func reportMS(b *testing.B) {
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms")
}

func BenchmarkAnalyze(b *testing.B) {
	for _, dofs := range []int{3000, 18000, 36000} {
		b.Run(fmt.Sprintf("dofs=%d", dofs), func(b *testing.B) {
			A := benchMatrix(benchGrids[dofs])
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f, err := Analyze(A)
				if err != nil {
					b.Fatal(err)
				}
				f.Free()
			}
			reportMS(b)
		})
	}
}

func BenchmarkFactorize(b *testing.B) {
	for _, dofs := range []int{3000, 18000, 36000} {
		b.Run(fmt.Sprintf("dofs=%d", dofs), func(b *testing.B) {
			f, g := benchFactor(b, dofs, orderingMETIS)
			A := benchMatrix(g)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := f.Factorize(A); err != nil {
					b.Fatal(err)
				}
			}
			reportMS(b)
			s := f.Stats()
			b.ReportMetric(float64(s.NonZerosL)/1e6, "Mnnz(L)")
			b.ReportMetric(float64(s.Supernodes), "supernodes")
		})
	}
}

func BenchmarkSolve(b *testing.B) { benchSolve(b, false) }

// BenchmarkSolveSingle: the solve with the single-precision copy of the
// factor (SolveSingle), beside BenchmarkSolve's double one.
func BenchmarkSolveSingle(b *testing.B) { benchSolve(b, true) }

// benchSolve times Solve, or SolveSingle with single, at each size.
func benchSolve(b *testing.B, single bool) {
	for _, dofs := range []int{3000, 18000, 36000} {
		b.Run(fmt.Sprintf("dofs=%d", dofs), func(b *testing.B) {
			f, _ := benchFactor(b, dofs, orderingMETIS)
			solve := f.Solve
			if single {
				if err := f.CopySingle(); err != nil {
					b.Fatal(err)
				}
				solve = f.SolveSingle
			}
			x := randomVector(dofs, rand.New(rand.NewSource(1)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := solve(x, x); err != nil {
					b.Fatal(err)
				}
			}
			reportMS(b)
		})
	}
}

// complianceVariant selects the routine a compliance benchmark times.
type complianceVariant int

const (
	sparseReduced   complianceVariant = iota // Compliance as the simulation calls it
	sparseRows                               // the supernodal kernel on the rows of X, no reduction
	denseSolves                              // ComplianceDense
	sparseSingle                             // ComplianceSingle
	sparseTwo                                // Compliance on two threads
	sparseSingleTwo                          // ComplianceSingle on two threads
)

// benchCompliance times one of the compliance routines.
func benchCompliance(b *testing.B, ord ordering, v complianceVariant) {
	for _, sz := range benchComplianceSizes {
		b.Run(fmt.Sprintf("dofs=%d_rows=%d", sz.dofs, sz.rows), func(b *testing.B) {
			f, g := benchFactor(b, sz.dofs, ord)
			X := g.contactRows(sz.rows, []rowKind{vertexRows, jacobianRows}, rand.New(rand.NewSource(2)))
			W := make([]float64, sz.rows*sz.rows)
			run := map[complianceVariant]func(*CSR, []float64) error{
				sparseReduced:   f.Compliance,
				sparseRows:      func(X *CSR, W []float64) error { return f.compliance(X, W, false, false) },
				denseSolves:     f.ComplianceDense,
				sparseSingle:    f.ComplianceSingle,
				sparseTwo:       f.Compliance,
				sparseSingleTwo: f.ComplianceSingle,
			}[v]
			if v == sparseTwo || v == sparseSingleTwo {
				f.SetComplianceThreads(2)
			}
			if err := run(X, W); err != nil { // warm the workspaces
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := run(X, W); err != nil {
					b.Fatal(err)
				}
			}
			reportMS(b)
			b.ReportMetric(f.Stats().ComplianceFlops/1e6, "Mflop")
			b.ReportMetric(float64(f.Stats().ComplianceColumns), "rhs")
			b.ReportMetric(float64(f.Stats().ComplianceThreads), "threads")
		})
	}
}

// BenchmarkCompliance: W = X·A⁻¹·Xᵀ by sparse forward solves on the
// supernodal tree, as the simulation calls it.
func BenchmarkCompliance(b *testing.B) { benchCompliance(b, orderingMETIS, sparseReduced) }

// BenchmarkComplianceRows: the same kernel with the rows of X as
// right-hand sides (no reduction to the touched DOFs).
func BenchmarkComplianceRows(b *testing.B) { benchCompliance(b, orderingMETIS, sparseRows) }

// BenchmarkComplianceSingle: Compliance's kernel in single precision.
func BenchmarkComplianceSingle(b *testing.B) { benchCompliance(b, orderingMETIS, sparseSingle) }

// BenchmarkComplianceTwoThreads: Compliance with SetComplianceThreads(2);
// run it with OPENBLAS_NUM_THREADS=1 (SetComplianceThreads says why).
func BenchmarkComplianceTwoThreads(b *testing.B) { benchCompliance(b, orderingMETIS, sparseTwo) }

// BenchmarkComplianceSingleTwoThreads: ComplianceSingle on two threads.
func BenchmarkComplianceSingleTwoThreads(b *testing.B) {
	benchCompliance(b, orderingMETIS, sparseSingleTwo)
}

// BenchmarkComplianceDense: the same W by dense multi-RHS solves.
func BenchmarkComplianceDense(b *testing.B) { benchCompliance(b, orderingMETIS, denseSolves) }

// BenchmarkComplianceAMD: the sparse routine on an AMD-ordered factor, to
// compare the orderings.
func BenchmarkComplianceAMD(b *testing.B) { benchCompliance(b, orderingAMD, sparseReduced) }

// BenchmarkFactorizeAMD: numeric factorisation with the AMD ordering.
func BenchmarkFactorizeAMD(b *testing.B) {
	for _, dofs := range []int{3000, 18000, 36000} {
		b.Run(fmt.Sprintf("dofs=%d", dofs), func(b *testing.B) {
			f, g := benchFactor(b, dofs, orderingAMD)
			A := benchMatrix(g)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := f.Factorize(A); err != nil {
					b.Fatal(err)
				}
			}
			reportMS(b)
			b.ReportMetric(float64(f.Stats().NonZerosL)/1e6, "Mnnz(L)")
		})
	}
}
