package settings

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"softgrasp/physics/rigid"
)

// The parameter table: every scalar setting of a Scenario, declared once
// with its name, command-line flag, panel field, unit, range, default and
// accessor. Validate (Settings, Material and Scenario), the panels'
// numeric fields, the headless and viewer flags, the A/B keys and the
// configuration in the JSON summary are all generated from it, so that
// adding a setting means adding an entry here and writing the code that
// uses its value. DefaultScenario is built from the table's defaults.
//
// What is not a number stays out of the table: the scenario's kind, the
// object, the jaws and the mesh file (names and paths) and Gravity (a
// vector, checked by Settings.Validate).

// ValueKind says how a parameter's value is typed and read.
type ValueKind int

const (
	// Real is a float64.
	Real ValueKind = iota
	// Integer is an int: panel fields and flags take whole numbers only.
	Integer
	// Choice is one of a few names (Param.Choices), stored as its index.
	Choice
)

// Scope says which value a parameter belongs to, and so which Validate
// checks it and how a running scene takes a change.
type Scope int

const (
	// PhysicsScope: a field of Settings. A running simulation takes it at
	// its next step (frame.SetSettings).
	PhysicsScope Scope = iota
	// MaterialScope: a field of Settings.Material, taken like the other
	// physics settings.
	MaterialScope
	// SceneScope: a field of the Scenario itself. A running scene takes it
	// when it is rebuilt (frame.SetScene), unless Param.NextRun.
	SceneScope
)

// Panel names the group of numeric fields that shows a parameter.
type Panel int

const (
	NoPanel      Panel = iota
	SolverPanel        // the Simulation panel's solver and material grid
	ScenePanel         // the Simulation panel's scene grid
	GripperPanel       // the Gripper panel
)

// Param is one setting of the table.
type Param struct {
	// Name is the Go field, the name validation errors start with
	// ("TimeStep"; a material field "YoungModulus", which
	// Settings.Validate reports as "Material: YoungModulus").
	Name string
	// Key is the setting's short name: its command-line flag (without the
	// dash) when Flag is set, its A/B key when AB is set, its key in the
	// JSON configuration and its panel field's id.
	Key   string
	Scope Scope
	Kind  ValueKind
	// Choices names the values of a Choice, by index.
	Choices []string

	// Def is the default value, SI units (DefaultScenario builds from
	// it); a Choice's default is its value 0.
	Def float64

	// Lo and Hi bound the value; OpenLo and OpenHi exclude the bound
	// itself. Hi = +Inf leaves it unbounded above. HiOf, when set,
	// replaces Hi with a bound that depends on another setting, which
	// Note names. NaN and ±Inf are always refused.
	Lo, Hi         float64
	OpenLo, OpenHi bool
	HiOf           func(c *Scenario) float64
	// Unit is the SI unit of the value ("" for a pure number); Note adds
	// to the range in an error message.
	Unit, Note string

	// Flag declares the command-line flag -Key of the headless runner and
	// the viewer, with Usage as its help text (Usage "" when the flag is
	// declared by hand beside a related one: -mesh-scale with
	// -mesh-units). FlagScale converts the SI value to the flag's (0: 1).
	Flag      bool
	Usage     string
	FlagScale float64
	// Everyday lists the flag in a command's short help (-h) among the
	// settings a user changes every day (time step, Newton, PGS,
	// friction, scheme, solver, the scene's); the others, research and
	// tuning switches, are listed by -help-all and work everywhere.
	Everyday bool

	// Label, when set, shows the setting as a numeric field of Panel, with
	// Hint as its tooltip; Scale converts the SI value to the shown one
	// (0: 1; h in ms: 1e3). Labels are ASCII: the panels' font has no
	// Greek letters.
	Label string
	Hint  string
	Panel Panel
	Scale float64
	// NextRun marks a scene setting that a running scene takes without a
	// rebuild: the spin speed at the next run of its script
	// (frame.SetOmega), the grip force at once (frame.SetGripForce).
	NextRun bool

	// AB makes Key a key of an A/B comparison's changes (ApplyAB): a
	// setting that B may differ by while it is stepped beside A.
	AB bool

	get func(c *Scenario) float64
	set func(c *Scenario, v float64)
}

// Get returns the parameter's value in c, in SI units (an Integer or a
// Choice as a whole float64).
func (p *Param) Get(c *Scenario) float64 { return p.get(c) }

// Set stores v (SI units) as the parameter's value in c.
func (p *Param) Set(c *Scenario, v float64) { p.set(c, v) }

// Default returns the parameter's default, SI units: Def (the value of
// DefaultScenario before a scenario's preset).
func (p *Param) Default() float64 { return p.Def }

// setDefaults stores the default of every parameter of the given scopes
// in c.
func setDefaults(c *Scenario, scopes ...Scope) {
	for _, p := range params {
		if slices.Contains(scopes, p.Scope) {
			p.set(c, p.Def)
		}
	}
}

// PanelScale returns the factor from the SI value to the shown one.
func (p *Param) PanelScale() float64 { return scaleOr1(p.Scale) }

// FlagFactor returns the factor from the SI value to the flag's.
func (p *Param) FlagFactor() float64 { return scaleOr1(p.FlagScale) }

func scaleOr1(s float64) float64 {
	if s == 0 {
		return 1
	}
	return s
}

// Format writes the value v (SI units) as text: a Choice by its name, an
// Integer in decimal, a Real in Go's shortest form.
func (p *Param) Format(v float64) string {
	switch p.Kind {
	case Choice:
		return choiceName(p.Choices, p.Name, int(v))
	case Integer:
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Parse reads text (SI units; a Choice by name, case and surrounding
// spaces ignored) as a value of the parameter. It checks the syntax only;
// Check and Validate check the range.
func (p *Param) Parse(text string) (float64, error) {
	t := strings.TrimSpace(text)
	switch p.Kind {
	case Choice:
		for i, name := range p.Choices {
			if strings.ToLower(t) == name {
				return float64(i), nil
			}
		}
		return 0, fmt.Errorf("unknown %s %q: want %s", p.Key, text, orList(p.Choices))
	case Integer:
		n, err := strconv.Atoi(t)
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number", text)
		}
		return float64(n), nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", text)
	}
	return v, nil
}

// choiceName returns names[i], or "Type(i)" for an i out of range.
func choiceName(names []string, typ string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

// orList writes "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// RangeError reports a parameter's value outside its range. Its text
// starts with the parameter's Name.
type RangeError struct {
	Param *Param
	Value float64
	Range string // the allowed range, as the message states it
}

func (e *RangeError) Error() string {
	p := e.Param
	switch p.Kind {
	case Choice:
		return fmt.Sprintf("%s = %d is not a %s: must be %s", p.Name, int(e.Value), strings.ToLower(p.Name), e.Range)
	case Integer:
		return fmt.Sprintf("%s = %d is out of range: must be %s", p.Name, int(e.Value), e.Range)
	}
	return fmt.Sprintf("%s = %g is out of range: must be %s", p.Name, e.Value, e.Range)
}

// Check reports the parameter's value in c outside its range.
func (p *Param) Check(c *Scenario) error {
	v := p.get(c)
	if p.Kind == Choice {
		if i := int(v); float64(i) != v || i < 0 || i >= len(p.Choices) {
			return &RangeError{Param: p, Value: v, Range: orList(p.Choices)}
		}
		return nil
	}
	hi := p.Hi
	if p.HiOf != nil {
		hi = p.HiOf(c)
	}
	bad := math.IsNaN(v) || math.IsInf(v, 0) || v < p.Lo || v > hi ||
		(p.OpenLo && v == p.Lo) || (p.OpenHi && v == hi)
	if !bad {
		return nil
	}
	return &RangeError{Param: p, Value: v, Range: p.rangeText(hi)}
}

// FlagRange writes the values the flag takes: its choices, or its range
// in the flag's unit (FlagScale; a bound that depends on another setting
// as its note says).
func (p *Param) FlagRange() string {
	if p.Kind == Choice {
		return orList(p.Choices)
	}
	q := *p
	f := p.FlagFactor()
	q.Lo, q.Hi = p.Lo*f, p.Hi*f
	if f != 1 {
		q.Unit = ""
	}
	return strings.TrimPrefix(q.rangeText(q.Hi), "in ")
}

// rangeText writes the range "in [lo, hi] unit (note)", or "> lo unit"
// when unbounded above.
func (p *Param) rangeText(hi float64) string {
	var r string
	switch {
	case math.IsInf(hi, 1) && p.OpenLo:
		r = fmt.Sprintf("> %g", p.Lo)
	case math.IsInf(hi, 1):
		r = fmt.Sprintf("≥ %g", p.Lo)
	default:
		l, rb := "[", "]"
		if p.OpenLo {
			l = "("
		}
		if p.OpenHi {
			rb = ")"
		}
		if p.Kind == Integer {
			r = fmt.Sprintf("in %s%d, %d%s", l, int(p.Lo), int(hi), rb)
		} else {
			r = fmt.Sprintf("in %s%g, %g%s", l, p.Lo, hi, rb)
		}
	}
	if p.Unit != "" {
		r += " " + p.Unit
	}
	if p.Note != "" {
		r += " (" + p.Note + ")"
	}
	return r
}

// checkScope checks every parameter of scope in c, in table order, and
// returns the first error.
func checkScope(c *Scenario, scope Scope) error {
	for _, p := range params {
		if p.Scope != scope {
			continue
		}
		if err := p.Check(c); err != nil {
			return err
		}
	}
	return nil
}

// Params returns the table, in its order (the order of the checks, the
// panels' fields and the A/B keys).
func Params() []*Param { return params }

// ParamByKey returns the parameter of key, or nil.
func ParamByKey(key string) *Param {
	for _, p := range params {
		if p.Key == key {
			return p
		}
	}
	return nil
}

// Values returns every parameter's value in c by key: a Choice as its
// name, an Integer as an int, a Real as a float64 (SI units). The JSON
// summary publishes it as the run's configuration.
func Values(c Scenario) map[string]any {
	m := make(map[string]any, len(params))
	for _, p := range params {
		v := p.get(&c)
		switch p.Kind {
		case Choice:
			m[p.Key] = p.Format(v)
		case Integer:
			m[p.Key] = int(v)
		default:
			m[p.Key] = v
		}
	}
	return m
}

// realParam, intParam and choiceParam complete an entry with its kind and
// its accessor, field, which points at the value in a Scenario.

func realParam(p Param, field func(c *Scenario) *float64) *Param {
	p.Kind = Real
	p.get = func(c *Scenario) float64 { return *field(c) }
	p.set = func(c *Scenario, v float64) { *field(c) = v }
	return &p
}

func intParam(p Param, field func(c *Scenario) *int) *Param {
	p.Kind = Integer
	p.get = func(c *Scenario) float64 { return float64(*field(c)) }
	p.set = func(c *Scenario, v float64) { *field(c) = int(v) }
	return &p
}

func choiceParam[T ~int](p Param, field func(c *Scenario) *T) *Param {
	p.Kind = Choice
	p.get = func(c *Scenario) float64 { return float64(*field(c)) }
	p.set = func(c *Scenario, v float64) { *field(c) = T(v) }
	return &p
}

var inf = math.Inf(1)

// params is the table.
var params = []*Param{
	// The solver.
	choiceParam(Param{Name: "Scheme", Key: "scheme", Choices: schemeNames,
		Flag: true, Everyday: true, Usage: "constraint update: fast or standard", AB: true},
		func(c *Scenario) *Scheme { return &c.Physics.Scheme }),
	choiceParam(Param{Name: "Solver", Key: "solver", Choices: solverNames,
		Flag: true, Everyday: true, Usage: "factorisation of A: exact (every step) or async (background refactorisation + PCG)", AB: true},
		func(c *Scenario) *Solver { return &c.Physics.Solver }),
	realParam(Param{Name: "TimeStep", Key: "dt", Def: 0.01, Lo: 0, Hi: 0.1, OpenLo: true, Unit: "s",
		Flag: true, Everyday: true, Usage: "time step h, s",
		Label: "h (ms)", Hint: "time step h", Panel: SolverPanel, Scale: 1e3},
		func(c *Scenario) *float64 { return &c.Physics.TimeStep }),
	realParam(Param{Name: "Friction", Key: "mu", Def: 0.8, Lo: 0, Hi: 10,
		Flag: true, Everyday: true, Usage: "Coulomb friction coefficient",
		Label: "mu", Hint: "Coulomb friction coefficient", Panel: SolverPanel},
		func(c *Scenario) *float64 { return &c.Physics.Friction }),
	intParam(Param{Name: "NewtonIterations", Key: "newton", Def: 5, Lo: 1, Hi: MaxNewton,
		Flag: true, Everyday: true, Usage: "Newton iterations K (1 = classic scheme)", AB: true,
		Label: "Newton K", Hint: "Newton iterations of the corrective motion (1 = classic scheme)", Panel: SolverPanel},
		func(c *Scenario) *int { return &c.Physics.NewtonIterations }),
	realParam(Param{Name: "NewtonTolerance", Key: "newton-tol", Def: 1e-4, Lo: 0, Hi: 1, Unit: "rad",
		Flag: true, Usage: "stop Newton when no normal turns more than this (rad); 0 = always K", AB: true,
		Label: "tol (rad)", Hint: "stop Newton when no contact normal turns more than this; 0 = always K", Panel: SolverPanel},
		func(c *Scenario) *float64 { return &c.Physics.NewtonTolerance }),
	realParam(Param{Name: "NewtonPositionTolerance", Key: "newton-pos-tol", Def: 1e-6, Lo: 0, Hi: 1, Unit: "m"},
		func(c *Scenario) *float64 { return &c.Physics.NewtonPositionTolerance }),
	choiceParam(Param{Name: "FirstLinearisation", Key: "first-linearisation", Choices: linearisationNames,
		Flag: true, Usage: "the rigid bodies' poses of the first Newton iteration's normals: end (the detection normals carried by the bodies' rotation over the step, as every later iteration's) or start (as found)", AB: true},
		func(c *Scenario) *Linearisation { return &c.Physics.FirstLinearisation }),
	choiceParam(Param{Name: "FastMapping", Key: "fast-mapping", Choices: fastMappingNames,
		Flag: true, Usage: "the fast scheme's geometric mapping H over a step: held (as detection found it) or remapped (each rigid-vertex pair's point on its soft triangle re-found at every Newton iterate, as the standard scheme does; costs a larger W_H)", AB: true},
		func(c *Scenario) *FastMapping { return &c.Physics.FastMapping }),
	realParam(Param{Name: "ContactTolerance", Key: "newton-contact-tol", Lo: 0, Hi: 1, Unit: "m",
		Flag: true, Usage: "also stop Newton, once no normal turns more than -newton-tol, when the contact law's residual at the iterate (Signorini's and Coulomb's) is within this (m); 0 = stop on the proximity points' move alone", AB: true},
		func(c *Scenario) *float64 { return &c.Physics.ContactTolerance }),
	realParam(Param{Name: "ElasticTolerance", Key: "newton-elastic-tol", Def: 1e-5, Lo: 0, Hi: 1, Unit: "m",
		Flag: true, Usage: "Newton on the whole residual: re-evaluate the internal forces at each Newton iterate and correct the free motion until the correction moves no node more than this (m), in the steps -newton-elastic-turn lets through; 0 = linearise them once per step", AB: true},
		func(c *Scenario) *float64 { return &c.Physics.ElasticTolerance }),
	realParam(Param{Name: "ElasticTurn", Key: "newton-elastic-turn", Def: 0.1, Lo: 0, Hi: math.Pi, Unit: "rad",
		Flag: true, Usage: "Newton on the whole residual only in steps in which the soft body, of one part and without attachments, turns by more than this at its start velocity, h·|ω| (rad); 0 = every step, every body", AB: true},
		func(c *Scenario) *float64 { return &c.Physics.ElasticTurn }),
	choiceParam(Param{Name: "TurnStart", Key: "turn-start", Choices: turnStartNames,
		Flag: true, Usage: "where a step that iterates on the whole residual starts its free motion: predicted (the body's rigid motion over the step, turned by h·ω, corrected by one quasi-Newton step) or linearised (the internal forces linearised at the step's start)", AB: true},
		func(c *Scenario) *TurnStart { return &c.Physics.TurnStart }),
	intParam(Param{Name: "PGSIterations", Key: "pgs", Def: 40, Lo: 1, Hi: 100000,
		Flag: true, Everyday: true, Usage: "PGS sweeps per Newton iteration", AB: true,
		Label: "PGS sweeps", Hint: "projected Gauss-Seidel sweeps per Newton iteration", Panel: SolverPanel},
		func(c *Scenario) *int { return &c.Physics.PGSIterations }),
	intParam(Param{Name: "PGSSingleFrom", Key: "pgs-single-from", Def: 250, Lo: 0, Hi: 1000000,
		Flag: true, Usage: "asynchronous solver: keep W in single precision for PGS in the steps with at least this many contacts (half the bytes per sweep, every sum in double); 0 = never (the exact solver only with -compliance-precision single)", AB: true},
		func(c *Scenario) *int { return &c.Physics.PGSSingleFrom }),
	choiceParam(Param{Name: "CompliancePrecision", Key: "compliance-precision", Choices: precisionNames,
		Flag: true, Usage: "precision of the compliance products W_H = H·A⁻¹·Hᵀ (fast), W = J·A⁻¹·Jᵀ (standard) and the asynchronous solver's node compliances: double, or single (the forward solves and products in float, twice the flops per cycle; W's relative error about 1e-7; PGS then reads W in single precision from -pgs-single-from contacts on in the exact solver too)", AB: true},
		func(c *Scenario) *Precision { return &c.Physics.CompliancePrecision }),
	intParam(Param{Name: "ComplianceThreads", Key: "compliance-threads", Lo: 0, Hi: 2,
		Flag: true, Usage: "exact solver: threads of the compliance products, 1 or 2 (the right-hand sides in two halves of equal work, one per thread, then their cross products; equal to one thread's result to round-off; pays with OpenBLAS on one thread, -blas-threads 1); 0 = 1; the asynchronous solver always uses one", AB: true},
		func(c *Scenario) *int { return &c.Physics.ComplianceThreads }),
	realParam(Param{Name: "PGSTolerance", Key: "pgs-tol", Def: 1e-6, Lo: 0, Hi: 1, OpenHi: true,
		Flag: true, Usage: "PGS relative tolerance; 0 = always -pgs sweeps", AB: true,
		Label: "PGS tol", Hint: "PGS relative tolerance; 0 = always all sweeps", Panel: SolverPanel},
		func(c *Scenario) *float64 { return &c.Physics.PGSTolerance }),
	realParam(Param{Name: "PGSForcing", Key: "pgs-forcing", Lo: 0, Hi: 1,
		Flag: true, Usage: "inexact Newton: PGS's tolerance in each Newton iteration follows the last turn of the normals θ (rad), max(-pgs-tol, min(this, this·θ)); this in the first iteration, -pgs-tol in the last; 0 = -pgs-tol in every iteration", AB: true},
		func(c *Scenario) *float64 { return &c.Physics.PGSForcing }),
	realParam(Param{Name: "PCGTolerance", Key: "pcg-tol", Def: 1e-6, Lo: 0, Hi: 1, OpenLo: true, OpenHi: true, Note: "relative residual",
		Flag: true, Usage: "relative residual of the conjugate gradient solves (async solver)"},
		func(c *Scenario) *float64 { return &c.Physics.PCGTolerance }),
	intParam(Param{Name: "PCGMaxIterations", Key: "pcg-max", Def: 200, Lo: 1, Hi: 100000},
		func(c *Scenario) *int { return &c.Physics.PCGMaxIterations }),
	intParam(Param{Name: "AsyncLag", Key: "async-lag", Lo: 0, Hi: 1000,
		Flag: true, Usage: "async solver: swap each background factorisation in exactly this many steps after it started, preconditioning from half as many (deterministic runs); 0 = as soon as ready"},
		func(c *Scenario) *int { return &c.Physics.AsyncLag }),
	intParam(Param{Name: "AsyncRefresh", Key: "async-refresh", Lo: 0, Hi: 1000,
		Flag: true, Usage: "async solver: start a background factorisation only once the factor in use is this many steps old (0 = whenever the worker is free)"},
		func(c *Scenario) *int { return &c.Physics.AsyncRefresh }),
	// Contact and divergence.
	realParam(Param{Name: "AlarmDistance", Key: "alarm", Def: 4e-3, Lo: 0, Hi: 1, OpenLo: true, Unit: "m",
		Flag: true, Usage: "collision alarm distance, m"},
		func(c *Scenario) *float64 { return &c.Physics.AlarmDistance }),
	choiceParam(Param{Name: "AlarmFall", Key: "alarm-fall", Choices: fallNames,
		Flag: true, Usage: "the fall towards a body that the alarm distance counts beyond a point's motion at its start velocity: gravity (gravity's whole one-step fall, as for a body in free fall) or last-step (the point's own velocity change of the last step and a tenth of gravity's fall: a resting body keeps the base alarm at large steps)", AB: true},
		func(c *Scenario) *Fall { return &c.Physics.AlarmFall }),
	realParam(Param{Name: "AlarmFallMargin", Key: "alarm-fall-margin", Def: 1.5, Lo: 1, Hi: 1.5,
		Flag: true, Usage: "the alarm's margin on gravity's one-step fall towards a body: 1.5 (as on the rest of the predicted motion) or down to 1 (the fall as it is: a resting or held object no longer widens the alarm at large steps)", AB: true},
		func(c *Scenario) *float64 { return &c.Physics.AlarmFallMargin }),
	realParam(Param{Name: "ContactDistance", Key: "contact-distance", Def: 1e-5, Lo: 0, OpenHi: true, Unit: "m", Note: "below AlarmDistance",
		HiOf: func(c *Scenario) float64 { return c.Physics.AlarmDistance },
		Flag: true, Usage: "gap the contact law keeps, m"},
		func(c *Scenario) *float64 { return &c.Physics.ContactDistance }),
	realParam(Param{Name: "MaxSpeed", Key: "max-speed", Def: 50, Lo: 0, Hi: inf, OpenLo: true, Unit: "m/s"},
		func(c *Scenario) *float64 { return &c.Physics.MaxSpeed }),
	realParam(Param{Name: "MaxInvertedFraction", Key: "max-inverted", Def: 0.05, Lo: 0, Hi: 1},
		func(c *Scenario) *float64 { return &c.Physics.MaxInvertedFraction }),
	intParam(Param{Name: "ContactBudget", Key: "contact-budget", Def: 300, Lo: 0, Hi: 1000000,
		Flag: true, Usage: "most proximity pairs per step on a surface mapped onto the mesh or a loaded mesh's boundary (grouped by rigid body and by the mesh nodes a soft point follows, the deepest two of each group and every jaw sample, the groups nearest contact first); 0 = every pair", AB: true},
		func(c *Scenario) *int { return &c.Physics.ContactBudget }),

	// The material (Material.Validate).
	realParam(Param{Name: "YoungModulus", Key: "young", Def: 5e4, Scope: MaterialScope, Lo: 0, Hi: inf, OpenLo: true, Unit: "Pa",
		Flag: true, Everyday: true, Usage: "Young's modulus of the soft object, Pa",
		Label: "E (kPa)", Hint: "Young's modulus of the soft object", Panel: SolverPanel, Scale: 1e-3},
		func(c *Scenario) *float64 { return &c.Physics.Material.YoungModulus }),
	realParam(Param{Name: "PoissonRatio", Key: "poisson", Def: 0.45, Scope: MaterialScope, Lo: -1, Hi: 0.5, OpenLo: true, OpenHi: true,
		Label: "nu", Hint: "Poisson's ratio, in (-1, 0.5)", Panel: SolverPanel},
		func(c *Scenario) *float64 { return &c.Physics.Material.PoissonRatio }),
	realParam(Param{Name: "Density", Key: "density", Def: 1100, Scope: MaterialScope, Lo: 0, Hi: inf, OpenLo: true, Unit: "kg/m³"},
		func(c *Scenario) *float64 { return &c.Physics.Material.Density }),
	realParam(Param{Name: "MassDamping", Key: "mass-damping", Scope: MaterialScope, Lo: 0, Hi: inf, Unit: "1/s",
		Flag: true, Usage: "Rayleigh mass damping α of B = α·M + β·K, 1/s (a drag on rigid motion too)", AB: true,
		Label: "alpha (1/s)", Hint: "Rayleigh mass damping alpha of B = alpha M + beta K (also drags rigid motion)", Panel: SolverPanel},
		func(c *Scenario) *float64 { return &c.Physics.Material.MassDamping }),
	realParam(Param{Name: "StiffnessDamping", Key: "stiffness-damping", Def: 0.005, Scope: MaterialScope, Lo: 0, Hi: inf, Unit: "s",
		Flag: true, Usage: "Rayleigh stiffness damping β of B = α·M + β·K, s", AB: true,
		Label: "beta (ms)", Hint: "Rayleigh stiffness damping beta of B = alpha M + beta K", Panel: SolverPanel, Scale: 1e3},
		func(c *Scenario) *float64 { return &c.Physics.Material.StiffnessDamping }),

	// The scene (Scenario.Validate).
	realParam(Param{Name: "ObjectSize", Key: "object-size", Def: 0.04, Scope: SceneScope, Lo: 0.005, Hi: 0.5, Unit: "m"},
		func(c *Scenario) *float64 { return &c.ObjectSize }),
	realParam(Param{Name: "MeshScale", Key: "mesh-scale", Scope: SceneScope, Lo: 0, Hi: 1000,
		Unit: "m per unit of the mesh file", Note: "0: fit into ObjectSize", Flag: true},
		func(c *Scenario) *float64 { return &c.MeshScale }),
	choiceParam(Param{Name: "MeshUp", Key: "mesh-up", Scope: SceneScope, Choices: upAxisNames,
		Flag: true, Everyday: true, Usage: "axis of the -mesh file that points up: auto (turned to rest stably: on its own z or y bottom when it stands level there, else on its most stable side), z, or y (the file is turned so that its +y points up)"},
		func(c *Scenario) *UpAxis { return &c.MeshUp }),
	choiceParam(Param{Name: "Mesher", Key: "mesher", Scope: SceneScope, Choices: mesherNames,
		Flag: true, Usage: "how a -mesh file becomes the mechanical mesh: grid (a grid of tetrahedra at -dofs with the file's surface mapped onto it: DOFs follow the budget, not the surface) or tetgen (TetGen fills a closed surface; its boundary is the surface)"},
		func(c *Scenario) *Mesher { return &c.Mesher }),
	choiceParam(Param{Name: "VolumeMesh", Key: "volume-mesh", Scope: SceneScope, Choices: volumeMeshNames,
		Flag: true, Usage: "a -mesh volume file with more DOFs than -dofs: budget (its boundary mapped onto a grid mesh at -dofs) or as-is (simulated as it is); with -mesher grid"},
		func(c *Scenario) *VolumeMesh { return &c.VolumeMesh }),
	intParam(Param{Name: "TargetDOFs", Key: "dofs", Def: 3000, Scope: SceneScope, Lo: 24, Hi: 200000,
		Flag: true, Everyday: true, Usage: "mechanical DOF budget: the procedural mesh (nearest mesh) and the mesh a -mesh file is mapped onto or filled with",
		Label: "DOFs", Hint: "mechanical DOF budget: the procedural mesh, or the grid a mesh file's surface is mapped onto (rebuilds the scene)", Panel: ScenePanel},
		func(c *Scenario) *int { return &c.TargetDOFs }),
	realParam(Param{Name: "Omega", Key: "omega", Def: 2 * math.Pi, Scope: SceneScope, Lo: -MaxOmega, Hi: MaxOmega, Unit: "rad/s",
		Flag: true, Everyday: true, Usage: "gripper spin speed, rad/s",
		Label: "omega", Hint: "spin speed of the grasp-and-rotate script, rad/s (next run)", Panel: GripperPanel, NextRun: true},
		func(c *Scenario) *float64 { return &c.Omega }),
	choiceParam(Param{Name: "JawStyle", Key: "jaws", Scope: SceneScope, Choices: jawStyleNames,
		Flag: true, Everyday: true, Usage: "gripper jaws: round (cylindrical fingertips) or flat", AB: true,
		Label: "jaws", Hint: "the gripper's jaws: round fingertips or flat plates (rebuilds the scene)", Panel: GripperPanel},
		func(c *Scenario) *rigid.JawStyle { return &c.JawStyle }),
	realParam(Param{Name: "GripForce", Key: "grip-force", Scope: SceneScope, Lo: 0, Hi: MaxGripForce, Unit: "N", Note: "0 chooses it from the object's weight",
		Flag: true, Everyday: true, Usage: "normal force each jaw closes to and holds, N: the jaws close until both carry it, then hold it (grasp-rotate, and G in the viewer); 0: 6.5 times the object's weight (4.5 N on the default box)",
		Label: "grip (N)", Hint: "normal force each jaw closes to and holds, N; 0: 6.5 times the object's weight (applies at once)", Panel: GripperPanel, NextRun: true},
		func(c *Scenario) *float64 { return &c.GripForce }),
	realParam(Param{Name: "Squeeze", Key: "squeeze", Def: 3e-3, Scope: SceneScope, Lo: 0, Unit: "m", Note: "a quarter of ObjectSize",
		HiOf: func(c *Scenario) float64 { return c.ObjectSize / 4 },
		Flag: true, Usage: "how deep each jaw squeezes the object, m (squeeze and stack scenes)"},
		func(c *Scenario) *float64 { return &c.Squeeze }),
	choiceParam(Param{Name: "GraspAim", Key: "grasp-aim", Scope: SceneScope, Choices: graspAimNames,
		Flag: true, Usage: "how the grasp-and-rotate script aims: once (at the object as the scene starts) or follow (aimed again at an object that moves before the jaws close, which wait for it to come to rest)"},
		func(c *Scenario) *GraspAim { return &c.GraspAim }),
	choiceParam(Param{Name: "GraspLoop", Key: "grasp-loop", Scope: SceneScope, Choices: graspLoopNames,
		Flag: true, Everyday: true, Usage: "grasp and rotate once, or repeat: set the object down after the spin, open, rise and grasp it again where it lies, until a command takes the gripper (the viewer's default)"},
		func(c *Scenario) *GraspLoop { return &c.GraspLoop }),
	realParam(Param{Name: "SpinTurns", Key: "spin-turns", Scope: SceneScope, Lo: 0, Hi: 100, Unit: "turns"},
		func(c *Scenario) *float64 { return &c.SpinTurns }),
	realParam(Param{Name: "InclineAngle", Key: "incline", Def: 25 * math.Pi / 180, Scope: SceneScope, Lo: 0, Hi: math.Pi / 2.5, Unit: "rad",
		Flag: true, Usage: "incline angle, degrees (incline scenario)", FlagScale: 180 / math.Pi},
		func(c *Scenario) *float64 { return &c.InclineAngle }),
	realParam(Param{Name: "DropHeight", Key: "drop-height", Def: 0.02, Scope: SceneScope, Lo: 0, Hi: 1, Unit: "m",
		Flag: true, Usage: "drop height, m (drop scenario)"},
		func(c *Scenario) *float64 { return &c.DropHeight }),
}
