package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// GLFW, OpenGL and ImGui must be called from the main OS thread (locked
// in init), but the testing package runs each test on its own goroutine.
// TestMain therefore keeps the main goroutine serving the functions that
// tests submit with onMain.

var mainQueue = make(chan func())

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(subprocessArgs); ok {
		// A test's child process (signals_test.go): the command itself,
		// on the main thread.
		os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	done := make(chan int)
	go func() { done <- m.Run() }()
	for {
		select {
		case f := <-mainQueue:
			f()
		case code := <-done:
			os.Exit(code)
		}
	}
}

// onMain runs f on the main thread and waits for it. f must not call
// t.Fatal or t.Skip (they would end the main goroutine and hang the run);
// onMain exits the process with a message if f does not return.
func onMain(f func()) {
	done := make(chan struct{})
	mainQueue <- func() {
		returned := false
		defer func() {
			if !returned {
				fmt.Fprintln(os.Stderr, "onMain: function did not return (t.Fatal, t.Skip or a panic on the main thread)")
				os.Exit(2)
			}
			close(done)
		}()
		f()
		returned = true
	}
	<-done
}
