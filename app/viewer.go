package main

import "io"

// runViewer will open the interactive viewer; until it exists it runs the
// headless grasp-and-rotate scenario and prints its summary.
func runViewer(args []string, stdout, stderr io.Writer) int {
	return runHeadless(args, stdout, stderr)
}
