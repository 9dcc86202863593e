package main

import (
	"fmt"
	"io"
)

// runBench will reproduce the paper's Table 1.
func runBench(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "softgrasp bench: not built yet")
	return 1
}
