package stage

import (
	"encoding/json"
	"testing"
	"time"
)

// TestMeans checks the Table-1 convention: the per-iteration stages are
// divided by the Newton iterations, every other stage by the steps, and a
// zero count gives zero rather than a division by it.
func TestMeans(t *testing.T) {
	var tm Times
	for s := Detect; s < count; s++ {
		tm[s] = time.Duration(s+1) * 6 * time.Millisecond
	}
	m := tm.Means(2, 3)
	if m.BuildWH != 15 || m.Total != 39 || m.Step != 42 || m.Detect != 3 {
		t.Errorf("per-step means %+v", m)
	}
	if m.RebuildW != 12 || m.PGS != 14 || m.Corr != 16 || m.Elastic != 18 || m.NewtonIter != 20 {
		t.Errorf("per-iteration means %+v", m.Table1)
	}
	if z := tm.Means(0, 0); z != (MS{}) {
		t.Errorf("no step, no iteration: %+v, want zeros", z)
	}
}

// TestJSONKeys holds the keys and their order, which the headless
// summary's and the benchmark's readers rely on.
func TestJSONKeys(t *testing.T) {
	b, err := json.Marshal(MS{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"build_wh":0,"rebuild_w":0,"pgs":0,"corr":0,"elastic":0,"newton_iter":0,"total":0,` +
		`"detect":0,"assemble":0,"factor":0,"free":0,"final":0,"step":0}`
	if string(b) != want {
		t.Fatalf("JSON %s, want %s", b, want)
	}
}
