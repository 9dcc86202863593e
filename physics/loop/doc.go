// Package loop runs a simulation on its own goroutine: it owns the one
// simulation value, drains a command channel between steps, paces the
// fixed time step to wall time, and publishes each step's Frame to viewers
// through a lock-free buffer swap. Commands in, frames out.
package loop
