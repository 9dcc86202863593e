package render

import (
	"fmt"
	"math"
)

// ColourMap selects the scalar field painted on the soft surface.
type ColourMap int

const (
	// ColourNone shades the surface in Options.SurfaceColour.
	ColourNone ColourMap = iota
	// ColourDisplacement maps Frame.Displacement, |q − q_rest| (m).
	ColourDisplacement
	// ColourVonMises maps Frame.VonMises, the node-averaged von Mises
	// stress (Pa).
	ColourVonMises
)

var colourMapNames = [...]string{ColourNone: "none", ColourDisplacement: "displacement", ColourVonMises: "von Mises"}

// String returns the map's short name.
func (m ColourMap) String() string {
	if m.valid() {
		return colourMapNames[m]
	}
	return fmt.Sprintf("ColourMap(%d)", int(m))
}

// Label returns the legend caption with the SI unit of the field.
func (m ColourMap) Label() string {
	switch m {
	case ColourDisplacement:
		return "displacement (m)"
	case ColourVonMises:
		return "von Mises stress (Pa)"
	}
	return ""
}

func (m ColourMap) valid() bool { return m >= ColourNone && m <= ColourVonMises }

// viridisStops samples matplotlib's viridis map at ten equally spaced
// points. Viridis is perceptually uniform (equal steps in the data read as
// equal steps in lightness) and legible to colour-blind viewers, which a
// rainbow map is not; linear interpolation between ten stops stays within
// a few units of the full 256-entry table.
var viridisStops = [...][3]uint8{
	{0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3e, 0x4a, 0x89}, {0x31, 0x68, 0x8e},
	{0x26, 0x82, 0x8e}, {0x1f, 0x9e, 0x89}, {0x35, 0xb7, 0x79}, {0x6d, 0xcd, 0x59},
	{0xb4, 0xde, 0x2c}, {0xfd, 0xe7, 0x25},
}

// Viridis returns the colour of t ∈ [0, 1] (clamped) in linear
// interpolation between the stops; the legend and the surface's 1D texture
// both use it, so they agree.
func Viridis(t float32) [3]float32 {
	if !(t > 0) { // also catches NaN
		t = 0
	}
	if t > 1 {
		t = 1
	}
	x := t * float32(len(viridisStops)-1)
	i := int(x)
	if i >= len(viridisStops)-1 {
		i = len(viridisStops) - 2
	}
	f := x - float32(i)
	a, b := viridisStops[i], viridisStops[i+1]
	var c [3]float32
	for k := range c {
		c[k] = (float32(a[k])*(1-f) + float32(b[k])*f) / 255
	}
	return c
}

// colourMapTexels fills n RGB texels (bytes) of the viridis map for a 1D
// texture.
func colourMapTexels(n int) []uint8 {
	texels := make([]uint8, 3*n)
	for i := 0; i < n; i++ {
		c := Viridis(float32(i) / float32(n-1))
		for k := 0; k < 3; k++ {
			texels[3*i+k] = uint8(math.Round(float64(c[k]) * 255))
		}
	}
	return texels
}

// DeviationFull is the direction deviation drawn fully red: 10°. Beyond a
// few degrees the start-of-step linearisation n⁰ is visibly wrong, which
// is what the recursive corrective motion repairs.
const DeviationFull = 10 * math.Pi / 180

// DeviationColour maps the angle between a contact's start-of-step normal
// n⁰ and its converged normal n to green (0°), through yellow (half of
// DeviationFull), to red (≥ DeviationFull).
func DeviationColour(angle float32) [3]float32 {
	green := [3]float32{0.15, 0.85, 0.25}
	yellow := [3]float32{0.98, 0.85, 0.10}
	red := [3]float32{0.95, 0.12, 0.10}
	t := angle / DeviationFull
	if !(t > 0) {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	a, b, f := green, yellow, 2*t
	if t > 0.5 {
		a, b, f = yellow, red, 2*t-1
	}
	return [3]float32{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f, a[2] + (b[2]-a[2])*f}
}
