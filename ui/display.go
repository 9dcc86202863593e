package ui

import "fmt"

// ColourMap selects the scalar field painted on the soft surface. Its
// values match the 3D renderer's colour maps in order; the application
// maps one onto the other.
type ColourMap int

const (
	ColourNone         ColourMap = iota // plain surface colour
	ColourDisplacement                  // |q − q_rest|
	ColourVonMises                      // von Mises stress
)

// colourMapNames are the Display panel's choices, in ColourMap order.
var colourMapNames = []string{"none", "displacement", "von Mises stress"}

// String names the map.
func (m ColourMap) String() string {
	if m >= 0 && int(m) < len(colourMapNames) {
		return colourMapNames[m]
	}
	return fmt.Sprintf("ColourMap(%d)", int(m))
}

// Display is what the Display panel toggles in the 3D view.
type Display struct {
	Wireframe bool
	ColourMap ColourMap
	Contacts  bool // contact points coloured by state
	Forces    bool // normal and friction force arrows
	// Deviations draws each contact's start-of-step normal n⁰ and its
	// converged Newton normal n.
	Deviations bool
	Bodies     bool // the jaws (rigid bodies other than the floor)
	Floor      bool
	Shadows    bool // the bodies' shadows on the floor
	Pattern    bool // a checkerboard of the material on the soft surface
	// ForceScale is the length of a force arrow per newton (m/N).
	ForceScale float32

	resetCamera bool
}

// DefaultDisplay returns the start-up view: shaded surface with its
// pattern and without a colour map, contacts and their deviations, bodies,
// floor and shadows, no force arrows, 1 cm per newton.
func DefaultDisplay() Display {
	return Display{Contacts: true, Deviations: true, Bodies: true, Floor: true, Shadows: true, Pattern: true, ForceScale: 0.01}
}

// RequestCameraReset asks the application to put the camera back to its
// home view.
func (d *Display) RequestCameraReset() { d.resetCamera = true }

// TakeCameraReset reports (once) whether a camera reset was requested.
func (d *Display) TakeCameraReset() bool {
	r := d.resetCamera
	d.resetCamera = false
	return r
}
