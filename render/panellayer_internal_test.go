package render

import (
	"slices"
	"testing"
)

// TestDropContained: a tooltip reaching from its panel into the 3D view
// overlaps the panel; the rectangles the view leaves alone must be the
// two, not their bounding box, whose corner no panel draws (the view would
// stay at the background colour there). A rectangle inside another goes,
// and of two equal ones the first stays.
func TestDropContained(t *testing.T) {
	panel := [4]int32{0, 0, 300, 600}
	tooltip := [4]int32{250, 500, 400, 60} // from inside the panel into the view
	inner := [4]int32{10, 10, 50, 50}
	got := dropContained([][4]int32{panel, tooltip, inner, panel})
	if want := [][4]int32{panel, tooltip}; !slices.Equal(got, want) {
		t.Fatalf("rectangles %v, want %v", got, want)
	}
	covers := func(x, y int32) bool {
		for _, r := range got {
			if x >= r[0] && x < r[0]+r[2] && y >= r[1] && y < r[1]+r[3] {
				return true
			}
		}
		return false
	}
	if covers(640, 10) {
		t.Fatal("a pixel that neither the panel nor the tooltip draws is covered")
	}
}
