package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"softgrasp/physics"
	"softgrasp/physics/loop"
	"softgrasp/physics/record"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// report is the summary that headless and replay print: the scene's
// summary and the checksum of the final state (scenario.Scene.
// StateChecksum, 16 hex digits); a replay adds what it compared.
type report struct {
	scenario.Summary
	FinalChecksum string        `json:"final_checksum"`
	Replay        *replayReport `json:"replay,omitempty"`
	// Lambda is, with headless -lambda, the last step's contact forces
	// (3 per contact): what the CPU and GPU backends are compared on.
	Lambda []float64 `json:"lambda,omitempty"`
	// Interrupted names the signal (SIGINT, SIGTERM) that stopped the run
	// before its last step; the summary is of the steps that ran.
	Interrupted string `json:"interrupted,omitempty"`
}

// replayReport is what a replay compared with its recording.
type replayReport struct {
	File             string   `json:"file"`
	RecordedChecksum string   `json:"recorded_checksum,omitempty"` // "" for a recording cut short
	Match            bool     `json:"match"`
	Commands         int      `json:"commands"`
	Checkpoints      int      `json:"checkpoints"`
	Notes            []string `json:"notes,omitempty"`
}

// writeJSON prints v as one indented JSON object.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	return nil
}

// writeReport prints r as one JSON object, or as the text summary.
func writeReport(w io.Writer, asJSON bool, r report) {
	if asJSON {
		_ = writeJSON(w, r)
		return
	}
	printSummary(w, r.Summary)
	if r.Interrupted != "" {
		fmt.Fprintf(w, "stopped by %s before the last step: the figures above are of the steps that ran\n", r.Interrupted)
	}
	fmt.Fprintf(w, "final state checksum %s\n", r.FinalChecksum)
	if p := r.Replay; p != nil {
		switch {
		case p.RecordedChecksum == "":
			fmt.Fprintf(w, "replay of %s: %d commands, %d checkpoints passed; cut short, no recorded final checksum\n", p.File, p.Commands, p.Checkpoints)
		default:
			fmt.Fprintf(w, "replay of %s: %d commands, %d checkpoints passed; recorded %s, identical %v\n", p.File, p.Commands, p.Checkpoints, p.RecordedChecksum, p.Match)
		}
	}
}

// startRecording creates the recording at path for a run of cfg and
// returns the configuration to run: the async solver at a fixed factor
// lag (record.Deterministic), said on stderr when the lag was chosen here.
func startRecording(path string, cfg settings.Scenario, stderr io.Writer) (settings.Scenario, *record.Writer, error) {
	fixed := record.DeterministicConfig(cfg)
	if fixed.Physics.AsyncLag != cfg.Physics.AsyncLag {
		fmt.Fprintf(stderr, "softgrasp: -record runs the async solver at -async-lag %d so that its replay is identical\n", fixed.Physics.AsyncLag)
	}
	w, err := record.Create(path)
	if err != nil {
		return cfg, nil, err
	}
	w.Begin(fixed)
	return fixed, w, w.Err()
}

// replayFlags are the replay command's flags.
type replayFlags struct {
	json    bool
	csv     string
	threads threadFlags
}

// register declares the replay's flags.
func (f *replayFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.json, "json", false, "print one JSON object on stdout at the end and nothing else")
	fs.StringVar(&f.csv, "csv", "", "write one CSV row per step to this file")
	f.threads.register(fs, 1)
}

// parseReplay reads "FILE [flags]" or "[flags] FILE".
func parseReplay(args []string, stdout, stderr io.Writer) (file string, f replayFlags, code int, done bool) {
	fs := flag.NewFlagSet("softgrasp replay", flag.ContinueOnError)
	f.register(fs)
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	} else if i := firstArg(fs, args); i >= 0 {
		file, args = args[i], append(args[:i:i], args[i+1:]...)
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return file, f, code, true
	}
	if file == "" {
		fmt.Fprintln(stderr, "softgrasp replay: which recording? usage: softgrasp replay FILE [-json] [-csv FILE]")
		return file, f, 2, true
	}
	if err := f.threads.validate(); err != nil {
		fmt.Fprintf(stderr, "softgrasp replay: %s\n", err)
		return file, f, 2, true
	}
	return file, f, 0, false
}

// firstArg returns the index of the first argument that is neither a flag
// of fs nor the value of one given apart ("-csv FILE": fs's flags that are
// not boolean take a value), or -1.
func firstArg(fs *flag.FlagSet, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return i
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if fl := fs.Lookup(name); fl != nil && !isBoolFlag(fl) {
			i++
		}
	}
	return -1
}

// isBoolFlag reports whether fl is a boolean flag, one that takes no value.
func isBoolFlag(fl *flag.Flag) bool {
	b, ok := fl.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// runReplay re-runs a recording without a window, prints the headless
// summary with the final checksum and compares it with the recorded one.
func runReplay(args []string, stdout, stderr io.Writer) int {
	file, f, code, done := parseReplay(args, stdout, stderr)
	if done {
		return code
	}
	rec, err := record.ReadFile(file)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp replay:", oneLine(err))
		return 1
	}
	if len(rec.Files) > 0 {
		// The scenes load the files the recorded run loaded, embedded in
		// the recording, not whatever is at their paths now.
		dir, err := os.MkdirTemp("", "softgrasp-replay-")
		if err == nil {
			defer os.RemoveAll(dir)
			err = rec.Materialise(dir)
		}
		if err != nil {
			fmt.Fprintf(stderr, "softgrasp replay: %s: the embedded files: %s\n", file, oneLine(err))
			return 1
		}
	}
	f.threads.apply(rec.Config.Physics.Solver)
	p, err := loop.NewPlayer(rec)
	if err != nil {
		fmt.Fprintf(stderr, "softgrasp replay: %s: %s\n", file, oneLine(err))
		return 1
	}
	defer p.Close()
	for _, n := range rec.Notes {
		fmt.Fprintf(stderr, "softgrasp replay: %s: %s\n", file, n)
	}
	var log *stepLog
	if f.csv != "" {
		if log, err = newStepLog(f.csv); err != nil {
			fmt.Fprintln(stderr, "softgrasp replay:", err)
			return 1
		}
	}
	intr := catchInterrupts()
	defer intr.stop()
	got, runErr := p.Run(func(sc *scenario.Scene, st *physics.StepStats, err error) error {
		if _, stop := intr.received(); stop {
			return errStopped
		}
		if log == nil || err != nil {
			return nil
		}
		return log.write(sc, st)
	})
	sig, stopped := intr.received()
	if stopped && errors.Is(runErr, errStopped) {
		runErr = nil
	}
	if log != nil {
		if err := log.close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	if stopped && runErr == nil {
		// Stopped before the recording's end: the summary of what ran,
		// no comparison with the recorded final state.
		writeReport(stdout, f.json, report{Summary: p.Scene().Summary(), Interrupted: signalName(sig),
			FinalChecksum: record.FormatChecksum(p.Scene().StateChecksum())})
		fmt.Fprintf(stderr, "softgrasp replay: %s: stopped by %s before the recording's end\n", file, signalName(sig))
		return exitStatus(sig)
	}
	return finishReplay(stdout, stderr, file, f.json, rec, p.Scene(), got, runErr)
}

// errStopped ends a replay on a signal (runReplay).
var errStopped = errors.New("stopped by a signal")

// finishReplay prints the report and returns the exit code: 0 when the
// replay reached the recorded state (or a recording cut short was replayed
// to its end), 1 when it departed or failed.
func finishReplay(stdout, stderr io.Writer, file string, asJSON bool, rec *record.Recording,
	sc *scenario.Scene, got loop.Replayed, runErr error) int {
	sum := sc.Summary()
	switch {
	case runErr != nil:
		sum.Error = runErr.Error()
	case got.StepError != nil:
		sum.Error = got.StepError.Error()
	}
	rep := &replayReport{File: file, Match: got.Match(), Commands: len(rec.Commands),
		Checkpoints: len(rec.Checkpoints), Notes: rec.Notes}
	if got.HasRecorded {
		rep.RecordedChecksum = record.FormatChecksum(got.Recorded)
	}
	writeReport(stdout, asJSON, report{Summary: sum, FinalChecksum: record.FormatChecksum(sc.StateChecksum()), Replay: rep})
	switch {
	case runErr != nil:
		fmt.Fprintf(stderr, "softgrasp replay: %s: %s\n", file, oneLine(runErr))
		return 1
	case got.HasRecorded && !got.Match():
		fmt.Fprintf(stderr, "softgrasp replay: %s: the final state differs from the recording: checksum %s, recorded %s\n",
			file, record.FormatChecksum(got.Checksum), rep.RecordedChecksum)
		return 1
	}
	return 0
}
