package sparse

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// frobeniusRelErr returns ‖W − ref‖_F / ‖ref‖_F for row-major W.
func frobeniusRelErr(W []float64, ref *mat.Dense) float64 {
	m, _ := ref.Dims()
	num, den := 0.0, 0.0
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			d := W[i*m+j] - ref.At(i, j)
			num += d * d
			den += ref.At(i, j) * ref.At(i, j)
		}
	}
	return math.Sqrt(num / den)
}

// scatteredRows returns rows whose non-zeros sit on random, mostly
// unrelated nodes of the whole grid: their reaches are unions of several
// tree paths, which exercises the non-contiguous code path of the kernel.
func scatteredRows(g testGrid, rows, perRow int, rng *rand.Rand) *CSR {
	X := &CSR{}
	X.Reset(0, g.dofs())
	for r := 0; r < rows; r++ {
		cols := rng.Perm(g.dofs())[:perRow]
		X.Append(cols, randomVector(perRow, rng))
	}
	return X
}

// duplicateRows appends copies of every other row of X.
func duplicateRows(X *CSR) *CSR {
	Y := &CSR{}
	Y.Reset(0, X.Cols)
	for i := 0; i < X.Rows; i++ {
		Y.Append(X.ColIdx[X.RowPtr[i]:X.RowPtr[i+1]], X.Val[X.RowPtr[i]:X.RowPtr[i+1]])
		if i%2 == 0 {
			Y.Append(X.ColIdx[X.RowPtr[i]:X.RowPtr[i+1]], X.Val[X.RowPtr[i]:X.RowPtr[i+1]])
		}
	}
	return Y
}

// sameNodeRows returns J-like rows of many contacts on the same triangle.
func sameNodeRows(g testGrid, contacts int, rng *rand.Rand) *CSR {
	X := &CSR{}
	X.Reset(0, g.dofs())
	for c := 0; c < contacts; c++ {
		g.appendContact(X, jacobianRows, 0, 0, rng)
		g.appendContact(X, vertexRows, 0, 0, rng)
	}
	return X
}

// withEmptyRow inserts a row without entries in the middle of X.
func withEmptyRow(X *CSR) *CSR {
	Y := &CSR{}
	Y.Reset(0, X.Cols)
	for i := 0; i < X.Rows; i++ {
		if i == X.Rows/2 {
			Y.Append(nil, nil)
		}
		Y.Append(X.ColIdx[X.RowPtr[i]:X.RowPtr[i+1]], X.Val[X.RowPtr[i]:X.RowPtr[i+1]])
	}
	return Y
}

// rhsPath says which right-hand sides Compliance must solve for a case.
type rhsPath int

const (
	anyPath     rhsPath = iota
	rowsPath            // the rows of X (X touches at least as many DOFs as it has rows)
	touchedPath         // the unit vectors of the DOFs touched by X (fewer than its rows)
)

type complianceCase struct {
	name string
	path rhsPath
	X    func(g testGrid, rng *rand.Rand) *CSR
}

var complianceCases = []complianceCase{
	{"vertex pairs (1 nnz)", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		return g.contactRows(24, []rowKind{vertexRows}, rng)
	}},
	{"triangle pairs (3 nnz)", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		return g.contactRows(30, []rowKind{triangleRows}, rng)
	}},
	{"J rows (9 nnz)", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		return g.contactRows(30, []rowKind{jacobianRows}, rng)
	}},
	{"mixed contacts", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		return g.contactRows(41, []rowKind{vertexRows, jacobianRows, triangleRows}, rng)
	}},
	{"duplicated rows", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		return duplicateRows(g.contactRows(18, []rowKind{jacobianRows, vertexRows}, rng))
	}},
	{"one row", rowsPath, func(g testGrid, rng *rand.Rand) *CSR {
		return g.contactRows(1, []rowKind{jacobianRows}, rng)
	}},
	{"rows on the same node", touchedPath, func(g testGrid, rng *rand.Rand) *CSR {
		return sameNodeRows(g, 4, rng)
	}},
	{"scattered rows", rowsPath, func(g testGrid, rng *rand.Rand) *CSR {
		return scatteredRows(g, 20, 5, rng)
	}},
	{"scattered and contact rows", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		X := g.contactRows(15, []rowKind{jacobianRows}, rng)
		S := scatteredRows(g, 7, 2, rng)
		for i := 0; i < S.Rows; i++ {
			X.Append(S.ColIdx[S.RowPtr[i]:S.RowPtr[i+1]], S.Val[S.RowPtr[i]:S.RowPtr[i+1]])
		}
		return X
	}},
	{"empty row", anyPath, func(g testGrid, rng *rand.Rand) *CSR {
		return withEmptyRow(g.contactRows(12, []rowKind{vertexRows, triangleRows}, rng))
	}},
	{"many contacts on few nodes", touchedPath, func(g testGrid, rng *rand.Rand) *CSR {
		X := &CSR{}
		X.Reset(0, g.dofs())
		for c := 0; c < 12; c++ {
			g.appendContact(X, rowKind(c%3), c%2, 0, rng)
		}
		return X
	}},
}

// complianceGrids includes a single-cell grid and grids whose factors have
// many supernodes (checked below).
var complianceGrids = []testGrid{{2, 2, 2}, {4, 3, 3}, {8, 6, 5}, {10, 7, 4}}

func TestComplianceMatchesDense(t *testing.T) {
	for _, g := range complianceGrids {
		A := g.matrix(5)
		f := mustFactor(t, A)
		if g.nodes() >= 100 && f.Stats().Supernodes < 8 {
			t.Fatalf("grid %v: only %d supernodes, the test would not cover the tree walk", g, f.Stats().Supernodes)
		}
		for _, tc := range complianceCases {
			t.Run(tc.name+"/"+gridName(g), func(t *testing.T) {
				X := tc.X(g, rand.New(rand.NewSource(int64(g.nodes()))))
				checkCompliance(t, f, A, X)
				cols := f.Stats().ComplianceColumns
				switch {
				case tc.path == rowsPath && cols != X.Rows:
					t.Errorf("solved %d right-hand sides, want the %d rows", cols, X.Rows)
				case tc.path == touchedPath && cols >= X.Rows:
					t.Errorf("solved %d right-hand sides, want fewer than the %d rows", cols, X.Rows)
				}
			})
		}
	}
}

// TestComplianceAfterRefactorization checks the kernel reads the new
// numeric values after Factorize with the same pattern.
func TestComplianceAfterRefactorization(t *testing.T) {
	g := testGrid{8, 6, 5}
	A := g.matrix(5)
	f := mustFactor(t, A)
	rng := rand.New(rand.NewSource(8))
	X := g.contactRows(45, []rowKind{jacobianRows, vertexRows}, rng)
	W := make([]float64, X.Rows*X.Rows)
	if err := f.Compliance(X, W); err != nil {
		t.Fatal(err)
	}
	before := append([]float64(nil), W...)
	g.assemble(A, rng, 2)
	if err := f.Factorize(A); err != nil {
		t.Fatal(err)
	}
	ref := checkCompliance(t, f, A, X)
	if frobeniusRelErr(before, ref) < 1e-3 {
		t.Fatal("test is vacuous: new values give the same compliance")
	}
}

// checkCompliance compares both compliance routines with the dense
// reference and checks the exact symmetry of the sparse result. The sparse
// routine runs last, so Stats describe it afterwards.
func checkCompliance(t *testing.T, f *Factor, A *SymCSC, X *CSR) *mat.Dense {
	t.Helper()
	ref, err := denseCompliance(A, X)
	if err != nil {
		t.Fatal(err)
	}
	m := X.Rows
	Wd := make([]float64, m*m)
	if err := f.ComplianceDense(X, Wd); err != nil {
		t.Fatal(err)
	}
	if e := frobeniusRelErr(Wd, ref); !(e <= 1e-10) {
		t.Errorf("ComplianceDense: relative Frobenius error %.3g", e)
	}
	W := make([]float64, m*m+3) // longer than needed is allowed
	for i := range W {
		W[i] = math.NaN() // every entry must be written
	}
	W[m*m] = 42
	if err := f.Compliance(X, W); err != nil {
		t.Fatal(err)
	}
	if e := frobeniusRelErr(W, ref); !(e <= 1e-10) {
		t.Errorf("Compliance: relative Frobenius error %.3g", e)
	}
	if W[m*m] != 42 {
		t.Errorf("Compliance wrote past X.Rows²")
	}
	checkSymmetric(t, W, m)
	Ws := make([]float64, m*m)
	for i := range Ws {
		Ws[i] = math.NaN()
	}
	if err := f.ComplianceSingle(X, Ws); err != nil {
		t.Fatal(err)
	}
	// float's rounding: the error must be that of single precision, and
	// not far beyond it.
	if e := frobeniusRelErr(Ws, ref); !(e <= singleComplianceTol) || (m > 1 && e < 1e-10) {
		t.Errorf("ComplianceSingle: relative Frobenius error %.3g, want within [1e-10, %g]", e, singleComplianceTol)
	} else if testing.Verbose() {
		t.Logf("ComplianceSingle: relative Frobenius error %.3g", e)
	}
	checkSymmetric(t, Ws, m)
	return ref
}

// singleComplianceTol bounds the relative Frobenius error of
// ComplianceSingle on the test grids: the largest measured is 2.4e-7
// (float's unit roundoff 6e-8), so the bound leaves about twice that.
const singleComplianceTol = 5e-7

// checkSymmetric fails unless the row-major m×m W is exactly symmetric.
func checkSymmetric(t *testing.T, W []float64, m int) {
	t.Helper()
	for i := 0; i < m; i++ {
		for j := 0; j < i; j++ {
			if W[i*m+j] != W[j*m+i] {
				t.Fatalf("W[%d,%d] = %v ≠ W[%d,%d] = %v", i, j, W[i*m+j], j, i, W[j*m+i])
			}
		}
	}
}

// TestComplianceOfEmptyRows: rows without entries give zero rows and
// columns of W (also when every row is empty).
func TestComplianceOfEmptyRows(t *testing.T) {
	A := testGrid{3, 3, 3}.matrix(1)
	f := mustFactor(t, A)
	X := &CSR{}
	X.Reset(0, A.N)
	for i := 0; i < 4; i++ {
		X.Append(nil, nil)
	}
	W := make([]float64, 16)
	for i := range W {
		W[i] = 1
	}
	if err := f.Compliance(X, W); err != nil {
		t.Fatal(err)
	}
	for i, v := range W {
		if v != 0 {
			t.Fatalf("W[%d] = %v, want 0", i, v)
		}
	}
}

func TestComplianceWithoutRows(t *testing.T) {
	A := testGrid{2, 2, 2}.matrix(1)
	f := mustFactor(t, A)
	for _, X := range []*CSR{{}, {Cols: A.N, RowPtr: []int{0}}} {
		if err := f.Compliance(X, nil); err != nil {
			t.Errorf("empty X %+v: %v", X, err)
		}
	}
}

func TestComplianceAllocatesNothing(t *testing.T) {
	g := testGrid{8, 6, 5}
	f := mustFactor(t, g.matrix(1))
	X := g.contactRows(60, []rowKind{jacobianRows, vertexRows}, rand.New(rand.NewSource(1)))
	W := make([]float64, X.Rows*X.Rows)
	if err := f.Compliance(X, W); err != nil { // warm up the native buffers
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(20, func() { _ = f.Compliance(X, W) }); allocs != 0 {
		t.Errorf("Compliance allocates %v times per call once warm", allocs)
	}
}

func gridName(g testGrid) string {
	return fmt.Sprintf("grid=%dx%dx%d", g.nx, g.ny, g.nz)
}

// TestComplianceOnTwoThreads runs every compliance case with the kernel
// on two threads (SetComplianceThreads) and the split threshold lowered
// to two right-hand sides: W agrees with the one-thread kernel's to
// round-off in double (and with the dense reference as closely as ever),
// and in single precision within float's bound of the reference.
func TestComplianceOnTwoThreads(t *testing.T) {
	defer setSplitMinRHS(setSplitMinRHS(2))
	for _, g := range complianceGrids {
		A := g.matrix(5)
		f := mustFactor(t, A)
		for _, tc := range complianceCases {
			t.Run(tc.name+"/"+gridName(g), func(t *testing.T) {
				X := tc.X(g, rand.New(rand.NewSource(int64(g.nodes()))))
				ref, err := denseCompliance(A, X)
				if err != nil {
					t.Fatal(err)
				}
				m := X.Rows
				one, two, twoSingle := make([]float64, m*m), make([]float64, m*m), make([]float64, m*m)
				f.SetComplianceThreads(1)
				if err := f.Compliance(X, one); err != nil {
					t.Fatal(err)
				}
				f.SetComplianceThreads(2)
				if err := f.Compliance(X, two); err != nil {
					t.Fatal(err)
				}
				st := f.Stats()
				if err := f.ComplianceSingle(X, twoSingle); err != nil {
					t.Fatal(err)
				}
				if st.ComplianceColumns >= 2 && st.ComplianceThreads != 2 {
					t.Fatalf("%d right-hand sides ran on %d threads, want 2", st.ComplianceColumns, st.ComplianceThreads)
				}
				checkSymmetric(t, two, m)
				checkSymmetric(t, twoSingle, m)
				d := mat.NewDense(m, m, one)
				if e := frobeniusRelErr(two, d); !(e <= 1e-13) {
					t.Errorf("two threads: %.3g (relative) from one thread's", e)
				}
				if e := frobeniusRelErr(two, ref); !(e <= 1e-10) {
					t.Errorf("two threads: relative Frobenius error %.3g", e)
				}
				if e := frobeniusRelErr(twoSingle, ref); !(e <= singleComplianceTol) {
					t.Errorf("two threads, single precision: relative Frobenius error %.3g", e)
				}
			})
		}
	}
}
