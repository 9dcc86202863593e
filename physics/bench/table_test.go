package bench

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"
)

// TestSpreadOf checks the median of odd and even counts and the range.
func TestSpreadOf(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want Spread
	}{
		{nil, Spread{}},
		{[]float64{4}, Spread{4, 4, 4}},
		{[]float64{3, 1, 2}, Spread{2, 1, 3}},
		{[]float64{4, 1, 3, 2}, Spread{2.5, 1, 4}},
	} {
		if got := SpreadOf(append([]float64(nil), tc.xs...)); got != tc.want {
			t.Errorf("SpreadOf(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
}

// TestTableRatiosAndOutputs builds a table from known samples: the rows
// are their medians, the ratios the standard's over the fast's, and the
// Markdown and CSV say so.
func TestTableRatiosAndOutputs(t *testing.T) {
	sample := func(contacts int, wh, newton, total float64) Sample {
		var s Sample
		s.Contacts = contacts
		s.V[ColBuildWH], s.V[ColNewton], s.V[ColTotal] = wh, newton, total
		return s
	}
	fast := []Sample{sample(10, 5, 1, 10), sample(12, 7, 2, 20), sample(14, 6, 3, 30)}
	std := []Sample{sample(10, 0, 40, 200), sample(12, 0, 50, 250), sample(14, 0, 60, 300)}
	tab := &Table{Scenario: "squeeze", Steps: 3, Newton: 5}
	tab.add(1000, fast, std)
	if len(tab.Rows) != 2 || tab.Rows[0].Method != "standard" || tab.Rows[1].Method != "fast" {
		t.Fatalf("rows %+v", tab.Rows)
	}
	f := tab.Rows[1]
	if f.Constraints != 12 || f.Col[ColBuildWH] != (Spread{6, 5, 7}) || f.Col[ColNewton].Median != 2 {
		t.Fatalf("fast row %+v", f)
	}
	q := tab.Ratios[0]
	if q.PerNewton != 25 || q.Total != 12.5 {
		t.Fatalf("ratios %+v, want 50/2 = 25 and 250/20 = 12.5", q)
	}
	var md bytes.Buffer
	tab.WriteMarkdown(&md)
	if !strings.Contains(md.String(), "| 1000 | 25.00× ✓ | 12.50× ✓ |") || !strings.Contains(md.String(), "| 1000 | 12.00 | fast | 6.00 ms (5.00–7.00) |") {
		t.Fatalf("Markdown:\n%s", &md)
	}
	var out bytes.Buffer
	if err := tab.WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(recs) != 3 || len(recs[0]) != 3+3*int(NumColumns)+2 {
		t.Fatalf("CSV %v, %v", recs, err)
	}
	if rep := tab.Report(); len(rep.Rows) != 2 || rep.Rows[1].BuildWH != 6 || rep.Ratios[0].PerNewton != 25 {
		t.Fatalf("report %+v", rep)
	}
	if r := ratio(1, 0); r != 0 || math.IsInf(r, 0) {
		t.Fatalf("ratio over 0 = %g", r)
	}
}

// TestScaleFit recovers a known exponent from rows that follow a power
// law, leaving out failed rows and other time steps.
func TestScaleFit(t *testing.T) {
	rep := &ScaleReport{}
	for _, d := range []int{1000, 2000, 4000, 8000} {
		rep.Rows = append(rep.Rows, ScaleRow{DOFs: d, DT: 0.01, Contacts: 100, MS: map[string]float64{"step": 1e-3 * math.Pow(float64(d), 1.5)}})
	}
	rep.Rows = append(rep.Rows, ScaleRow{DOFs: 16000, DT: 0.01, Error: "diverged", MS: map[string]float64{"step": 1}},
		ScaleRow{DOFs: 16000, DT: 0.02, MS: map[string]float64{"step": 1}})
	e := rep.fit(0.01)
	if math.Abs(e["step"]-1.5) > 1e-12 || math.Abs(e["contacts"]) > 1e-12 {
		t.Fatalf("exponents %v, want step 1.5 and contacts 0", e)
	}
}
