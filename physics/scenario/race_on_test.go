//go:build race

package scenario

// raceBuild is true in a race-detector build: the long runs whose
// goroutines share data run there even under -short (Makefile, test).
const raceBuild = true
