//go:build !race

package scenario

// raceBuild is true in a race-detector build (race_on_test.go).
const raceBuild = false
