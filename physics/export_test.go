package physics

// FreezeMapping holds the standard scheme's geometric mapping G (the
// barycentric weights of rigid-vertex pairs) fixed over each step of s, as
// the fast scheme assumes, for the tests that prove both schemes equal
// under that assumption.
func FreezeMapping(s *Simulation, on bool) { s.freezeMapping = on }
