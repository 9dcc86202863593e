package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// headless runs the headless subcommand in-process.
func headless(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runHeadless(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHeadlessJSONIsOneObjectWithTheContractKeys(t *testing.T) {
	csvPath := filepath.Join(t.TempDir(), "steps.csv")
	code, out, errs := headless("-dofs", "300", "-steps", "30", "-json", "-csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatal("stdout holds more than one JSON value")
	}
	for _, k := range []string{"scenario", "scheme", "newton", "dt", "mu", "omega", "dofs", "steps",
		"contacts_mean", "max_penetration", "slip", "held", "realtime_factor", "force_jitter", "ms"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON lacks key %q", k)
		}
	}
	ms, ok := obj["ms"].(map[string]any)
	if !ok {
		t.Fatalf("ms is %T, want an object", obj["ms"])
	}
	for _, k := range []string{"build_wh", "rebuild_w", "pgs", "corr", "newton_iter", "total"} {
		if _, ok := ms[k]; !ok {
			t.Errorf("ms lacks key %q", k)
		}
	}
	if obj["steps"].(float64) != 30 || obj["scenario"] != "grasp-rotate" || obj["scheme"] != "fast" {
		t.Errorf("summary does not describe the run: steps %v scenario %v scheme %v", obj["steps"], obj["scenario"], obj["scheme"])
	}
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(data), "\n"); lines != 31 {
		t.Fatalf("CSV has %d lines, want a header and 30 rows", lines)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	held := slices.Index(rows[0], "held")
	if held < 0 {
		t.Fatalf("CSV header %v has no held column", rows[0])
	}
	for _, r := range rows[1:] {
		if r[held] != "true" && r[held] != "false" {
			t.Fatalf("held = %q in row %v", r[held], r)
		}
	}
}

func TestHeadlessStandardSchemeHasNoBuildWH(t *testing.T) {
	code, out, errs := headless("-dofs", "300", "-steps", "120", "-scheme", "standard", "-json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var s struct {
		Scheme string
		MS     struct {
			BuildWH  float64 `json:"build_wh"`
			RebuildW float64 `json:"rebuild_w"`
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Scheme != "standard" || s.MS.BuildWH != 0 || s.MS.RebuildW <= 0 {
		t.Fatalf("standard run reports scheme %q, build_wh %g, rebuild_w %g", s.Scheme, s.MS.BuildWH, s.MS.RebuildW)
	}
}

// TestHeadlessGraspsAYUpMesh runs grasp-and-rotate on the Y-up test bar
// turned upright (-mesh-up y): the JSON reports it held, gripped and
// turned, and the step log shows it held with a grip force above zero at
// every step of the spin.
func TestHeadlessGraspsAYUpMesh(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole script")
	}
	if _, err := exec.LookPath("tetgen"); err != nil && os.Getenv("SOFTGRASP_REQUIRE_TETGEN") == "" {
		t.Skip("tetgen is not on PATH: the test bar is a surface it fills")
	}
	csvPath := filepath.Join(t.TempDir(), "steps.csv")
	code, out, errs := headless("-mesh", "../physics/scenario/testdata/bar_yup.obj", "-mesh-up", "y", "-dofs", "600", "-json", "-csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var s struct {
		Mesh      string
		Held      bool
		GripForce float64 `json:"grip_force_mean"`
		Slip      float64
		Settings  map[string]any
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if !s.Held || !(s.GripForce > 0) || !strings.HasSuffix(s.Mesh, "turned y up)") || s.Settings["mesh-up"] != "y" {
		t.Fatalf("mesh %q (mesh-up %v): held %v, grip force %g N, slip %g m", s.Mesh, s.Settings["mesh-up"], s.Held, s.GripForce, s.Slip)
	}
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	phase, held, grip := slices.Index(rows[0], "phase"), slices.Index(rows[0], "held"), slices.Index(rows[0], "grip_force")
	spun := 0
	for _, r := range rows[1:] {
		if r[phase] != "spin" {
			continue
		}
		spun++
		if f, err := strconv.ParseFloat(r[grip], 64); r[held] != "true" || err != nil || !(f > 0) {
			t.Fatalf("spinning, step %v: held %s, grip force %s N", r[0], r[held], r[grip])
		}
	}
	if spun == 0 {
		t.Fatal("no step of the spin")
	}
}

func TestHeadlessBadInputIsOneLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.msh")
	if err := os.WriteFile(bad, []byte("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"malformed mesh", []string{"-mesh", bad}, "bad.msh"},
		{"missing mesh", []string{"-mesh", filepath.Join(dir, "none.vtk")}, "none.vtk"},
		{"unknown flag", []string{"-frobnicate"}, "frobnicate"},
		{"negative time step", []string{"-dt", "-0.01"}, "-dt"},
		{"NaN friction", []string{"-mu", "NaN"}, "-mu"},
		{"unknown scheme", []string{"-scheme", "quick"}, "-scheme"},
		{"unknown up axis", []string{"-mesh-up", "x"}, "-mesh-up"},
		{"unknown scenario", []string{"-scenario", "juggle"}, "-scenario"},
		{"zero Newton", []string{"-newton", "0"}, "-newton"},
		{"stray argument", []string{"extra"}, "extra"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := headless(c.args...)
			if code == 0 {
				t.Fatal("exit code 0 for bad input")
			}
			if out != "" {
				t.Fatalf("stdout not empty: %q", out)
			}
			if strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || errs == "" {
				t.Fatalf("stderr is not one line: %q", errs)
			}
			if !strings.Contains(errs, c.want) {
				t.Fatalf("stderr %q does not name %q", errs, c.want)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Fatalf("stderr holds a stack trace: %q", errs)
			}
		})
	}
}

// TestHeadlessContactsCSV checks -contacts: a header, one row per contact
// for every step with contacts, and the last step's rows giving the same
// normal forces, in the same order, as -lambda's λn of that step; a bad
// path is one line and exit 1.
func TestHeadlessContactsCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contacts.csv")
	const steps = 60
	code, out, errs := headless("-dofs", "300", "-steps", strconv.Itoa(steps), "-json", "-lambda", "-contacts", path)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rep struct {
		Lambda []float64 `json:"lambda"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, path)
	if !slices.Equal(rows[0], contactsHeader) {
		t.Fatalf("header %v", rows[0])
	}
	col := func(name string) int { return slices.Index(contactsHeader, name) }
	var last [][]string
	perStep := map[string]int{}
	for _, r := range rows[1:] {
		perStep[r[col("step")]]++
		if r[col("step")] == strconv.Itoa(steps-1) {
			last = append(last, r)
		}
		if r[col("body_a")] != "soft" || r[col("body_b")] == "" {
			t.Fatalf("row %v does not name both bodies", r)
		}
		if s := r[col("state")]; s != "separated" && s != "stick" && s != "slip" {
			t.Fatalf("state %q", s)
		}
	}
	if len(last) == 0 || 3*len(last) != len(rep.Lambda) {
		t.Fatalf("%d rows for the last step, -lambda has %d values (3 per contact)", len(last), len(rep.Lambda))
	}
	for a, r := range last {
		got, err := strconv.ParseFloat(r[col("normal_force_n")], 64)
		if err != nil {
			t.Fatal(err)
		}
		if want := rep.Lambda[3*a]; got != want && math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Fatalf("contact %d: normal force %g in the CSV, λn %g", a, got, want)
		}
	}
	if len(perStep) < steps/2 {
		t.Fatalf("contacts in only %d of %d steps", len(perStep), steps)
	}
	code, _, errs = headless("-dofs", "300", "-steps", "2", "-contacts", filepath.Join(t.TempDir(), "no", "such", "dir.csv"))
	if code != 1 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "-contacts") {
		t.Fatalf("a bad -contacts path: exit %d, stderr %q", code, errs)
	}
}

// TestHeadlessNewtonCSV checks -newton-csv: a header, then for every step
// one row per Newton iteration, k from 0, as many as -csv's newton column
// and their sweeps adding up to its pgs_sweeps; with -pgs-forcing the
// first iteration's tolerance is η; the JSON's pgs_sweeps_mean is their
// mean per step and its last_newton the last step's iterations; a bad
// path is one line and exit 1.
func TestHeadlessNewtonCSV(t *testing.T) {
	dir := t.TempDir()
	steps, iters := filepath.Join(dir, "steps.csv"), filepath.Join(dir, "newton.csv")
	code, out, errs := headless("-dofs", "300", "-steps", "40", "-pgs-forcing", "0.01", "-json", "-csv", steps, "-newton-csv", iters)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var sum struct {
		PGSSweepsMean float64 `json:"pgs_sweeps_mean"`
		LastNewton    []struct {
			PGSSweeps    int     `json:"pgs_sweeps"`
			PGSTolerance float64 `json:"pgs_tolerance"`
		} `json:"last_newton"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, iters)
	if !slices.Equal(rows[0], newtonHeader) {
		t.Fatalf("header %v", rows[0])
	}
	col := func(name string) int { return slices.Index(newtonHeader, name) }
	perStep, sweeps := map[string]int{}, map[string]int{}
	for _, r := range rows[1:] {
		step := r[col("step")]
		if r[col("k")] != strconv.Itoa(perStep[step]) {
			t.Fatalf("step %s: iteration %s after %d", step, r[col("k")], perStep[step])
		}
		if r[col("k")] == "0" && r[col("pgs_tolerance")] != "0.01" {
			t.Fatalf("step %s: first iteration's PGS tolerance %s, want the forcing 0.01", step, r[col("pgs_tolerance")])
		}
		n, err := strconv.Atoi(r[col("pgs_sweeps")])
		if err != nil {
			t.Fatal(err)
		}
		perStep[step]++
		sweeps[step] += n
	}
	stepRows := readCSV(t, steps)
	sc := func(name string) int { return slices.Index(stepRows[0], name) }
	for _, r := range stepRows[1:] {
		step := r[sc("step")]
		if strconv.Itoa(perStep[step]) != r[sc("newton")] || strconv.Itoa(sweeps[step]) != r[sc("pgs_sweeps")] {
			t.Fatalf("step %s: %d iterations and %d sweeps in -newton-csv, -csv has %s and %s", step, perStep[step], sweeps[step], r[sc("newton")], r[sc("pgs_sweeps")])
		}
	}
	if len(stepRows) != 41 {
		t.Fatalf("%d step rows, want 40", len(stepRows)-1)
	}
	total := 0
	for _, n := range sweeps {
		total += n
	}
	if want := float64(total) / 40; math.Abs(sum.PGSSweepsMean-want) > 1e-12*want {
		t.Fatalf("JSON pgs_sweeps_mean %g, the CSV's %g", sum.PGSSweepsMean, want)
	}
	if len(sum.LastNewton) != perStep["39"] || sum.LastNewton[0].PGSTolerance != 0.01 {
		t.Fatalf("JSON last_newton %+v, the CSV's last step has %d iterations", sum.LastNewton, perStep["39"])
	}
	n := 0
	for _, it := range sum.LastNewton {
		n += it.PGSSweeps
	}
	if n != sweeps["39"] {
		t.Fatalf("JSON last_newton has %d sweeps, the CSV's last step %d", n, sweeps["39"])
	}
	code, _, errs = headless("-dofs", "300", "-steps", "2", "-newton-csv", filepath.Join(dir, "no", "such", "dir.csv"))
	if code != 1 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "-newton-csv") {
		t.Fatalf("a bad -newton-csv path: exit %d, stderr %q", code, errs)
	}
}

// readCSV reads a whole CSV file written by a command.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %d rows, %v", path, len(rows), err)
	}
	return rows
}

// TestHeadlessContactsCSVAttached checks -contacts on a scene with nodes
// attached to a dynamic body (hanging.toml): every step has its held
// nodes as rows of kind "attached", state "held", their gap within
// 10 µm, and the last step's forces (x in normal_force_n, y and z in the
// friction columns) summing, with the sign on the body, to the summary's
// attach_force.
func TestHeadlessContactsCSVAttached(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contacts.csv")
	const steps = 20
	code, out, errs := headless("-scene", "../assets/scenes/hanging.toml", "-steps", strconv.Itoa(steps), "-json", "-contacts", path)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rep struct {
		Bodies []struct {
			AttachForce *[3]float64 `json:"attach_force"`
		} `json:"bodies"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Bodies) != 1 || rep.Bodies[0].AttachForce == nil {
		t.Fatalf("bodies %+v: want the bob with its attach_force", rep.Bodies)
	}
	rows := readCSV(t, path)
	col := func(name string) int { return slices.Index(contactsHeader, name) }
	num := func(r []string, name string) float64 {
		x, err := strconv.ParseFloat(r[col(name)], 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	held := map[string]int{}
	var sum [3]float64
	for _, r := range rows[1:] {
		if r[col("kind")] != "attached" {
			continue
		}
		held[r[col("step")]]++
		if r[col("state")] != "held" || r[col("body_b")] != "bob" || num(r, "gap_m") > 1e-5 {
			t.Fatalf("attached row %v: want state held against the bob, gap ≤ 10 µm", r)
		}
		if r[col("step")] == strconv.Itoa(steps-1) {
			sum[0] -= num(r, "normal_force_n") + num(r, "friction_x_n")
			sum[1] -= num(r, "friction_y_n")
			sum[2] -= num(r, "friction_z_n")
		}
	}
	if len(held) != steps || held["0"] == 0 {
		t.Fatalf("attached rows in %d of %d steps (%d in the first)", len(held), steps, held["0"])
	}
	want := *rep.Bodies[0].AttachForce
	for i := range sum {
		if math.Abs(sum[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
			t.Fatalf("attached rows sum to %v N on the bob, the summary says %v", sum, want)
		}
	}
}
