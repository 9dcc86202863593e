//go:build !linux

package physics

// lowerThreadPriority is a no-op where thread priorities are not
// available; it reports false.
func lowerThreadPriority() bool { return false }
