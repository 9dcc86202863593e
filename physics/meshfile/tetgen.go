package meshfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// TetGen (Hang Si, WIAS Berlin; https://wias-berlin.de/software/tetgen/)
// fills a closed triangle surface with quality tetrahedra. It runs as a
// separate program on a temporary .smesh file, for two reasons: TetGen is
// licensed under the AGPL, which a separate program keeps apart from this
// code, and a child process can be bounded in time and killed, where a
// library call that loops on a bad surface cannot. Debian and Ubuntu
// package it as "tetgen" (make deps installs it).

// DefaultTetGenTimeout bounds one TetGen run when the options do not.
const DefaultTetGenTimeout = 60 * time.Second

// TetGenOptions say how Tetrahedralize runs TetGen.
type TetGenOptions struct {
	// Program is the TetGen executable; "" looks up "tetgen" on PATH.
	Program string
	// TargetNodes is the node count to aim at (3 DOFs each); TetGen gets
	// a bound on the tetrahedron volume that yields about that many. 0
	// sets no bound: TetGen adds only the points the quality bound needs.
	TargetNodes int
	// RadiusEdge bounds the radius-edge ratio of the tetrahedra (TetGen's
	// -q); 0 uses 1.5. MinDihedral bounds their dihedral angles, degrees;
	// 0 uses 12.
	RadiusEdge  float64
	MinDihedral float64
	// Timeout bounds each TetGen run; 0 uses DefaultTetGenTimeout.
	Timeout time.Duration
}

func (o TetGenOptions) withDefaults() TetGenOptions {
	if o.RadiusEdge <= 0 {
		o.RadiusEdge = 1.5
	}
	if o.MinDihedral <= 0 {
		o.MinDihedral = 12
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTetGenTimeout
	}
	return o
}

// ErrNoTetGen reports that the TetGen program is not installed.
var ErrNoTetGen = errors.New("the TetGen program (tetgen) is not installed; it fills a closed surface with tetrahedra " +
	"(Debian/Ubuntu: apt-get install tetgen, or make deps)")

// tetgenPath finds the program.
func (o TetGenOptions) tetgenPath() (string, error) {
	name := o.Program
	if name == "" {
		name = "tetgen"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", ErrNoTetGen
	}
	return path, nil
}

// Tetrahedralize fills a closed surface with tetrahedra by running
// TetGen. The surface is first checked and oriented (Close): an open,
// non-manifold or non-orientable surface is an error that says where. The
// notes say what TetGen made and anything worth knowing about it.
//
// The volume bound aims at TargetNodes: a quality mesh has about 5.5
// tetrahedra per node, so each tetrahedron gets at most V/(5.5·N). If the
// first run misses the target by more than a quarter, one more run scales
// the bound by the ratio found.
//
// A surface extracted from an image or a scan has edges far shorter than
// the others and nearly flat triangles; TetGen's quality refinement
// splits the surface around them into ever smaller pieces and leaves
// tetrahedra below the degenerate volume (slivers). Such a surface (an
// edge shorter than a thousandth of its size, or a first mesh with
// slivers) is meshed again with its short edges merged and its triangles
// kept as they are (sliverPlans); the slivers left are repaired or
// removed (mesh.RepairSlivers), and the notes say how many.
//
// TetGen stops on a surface that intersects itself. When a few triangles
// cross others (a fold of a smoothed or scanned surface), they are taken
// out, then with one and two rings of triangles around them, and the
// holes left filled (mesh.FillHoles) until TetGen meshes the surface; a
// surface whose crossings are not local (two solids that overlap) leaves
// holes too large to fill, and the error says so.
func Tetrahedralize(s *mesh.TriSurface, opt TetGenOptions) (*mesh.TetMesh, []string, error) {
	opt = opt.withDefaults()
	st, err := s.Close()
	if err != nil {
		return nil, nil, err
	}
	prog, err := opt.tetgenPath()
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if st.Flipped > 0 {
		notes = append(notes, fmt.Sprintf("turned %d of %d surface triangles to face outwards", st.Flipped, len(s.Tris)))
	}
	m, pnotes, err := meshPlans(prog, opt, s, st.Volume)
	var first *intersectError
	if errors.As(err, &first) {
		// Take out the triangles that cross others (from the second round
		// on with the rings of triangles around them), close the holes
		// left and mesh again.
		for round := 0; round < untangleRounds; round++ {
			u := &mesh.TriSurface{Nodes: slices.Clone(first.surf.Nodes), Tris: slices.Clone(first.surf.Tris)}
			removed, holes, uerr := untangle(u, first.in, round)
			if uerr == nil {
				var ust mesh.ShellStats
				if ust, uerr = u.Close(); uerr == nil {
					m, pnotes, err = meshPlans(prog, opt, u, ust.Volume)
				}
			}
			switch {
			case uerr != nil:
				return nil, nil, fmt.Errorf("%w; taking out the %d triangles around them does not help: %w", first, removed, uerr)
			case err == nil:
				notes = append(notes, first.notes...)
				notes = append(notes, untangleNote(first.in, removed, holes))
				for _, n := range pnotes {
					if !slices.Contains(notes, n) {
						notes = append(notes, n)
					}
				}
				return m, notes, nil
			case !errors.As(err, new(*intersectError)):
				return nil, nil, err
			}
		}
		return nil, nil, fmt.Errorf("%w; taking out the triangles that cross and two rings of triangles around them does not untangle it", first)
	}
	if err != nil {
		return nil, nil, err
	}
	return m, append(notes, pnotes...), nil
}

// untangleNote says what untangle did.
func untangleNote(in intersection, removed int, holes mesh.HoleStats) string {
	note := fmt.Sprintf("the surface intersects itself (TetGen finds %d pairs of crossing triangles, the first near %s): took out %s around them",
		in.pairs, fmtPoint(in.where), nouns(removed, "triangle", "triangles"))
	if holes.Stray > 0 {
		note += fmt.Sprintf(", dropped %s cut off (%s)", nouns(holes.Stray, "piece", "pieces"), nouns(holes.StrayTris, "triangle", "triangles"))
	}
	switch holes.Holes {
	case 0:
	case 1:
		note += " and filled the hole left"
	default:
		note += fmt.Sprintf(" and filled the %d holes left", holes.Holes)
	}
	return note
}

// untangleRounds bounds the rounds of taking out crossing triangles: the
// triangles themselves, then with one and two rings around them.
const untangleRounds = 3

// untangle takes the triangles that TetGen finds crossing others out of
// the surface, with rings rings of triangles around them, and fills the
// holes left (mesh.FillHoles, which refuses holes too large).
func untangle(s *mesh.TriSurface, in intersection, rings int) (int, mesh.HoleStats, error) {
	index := make(map[[3]int]int, len(s.Tris))
	for i, t := range s.Tris {
		slices.Sort(t[:])
		index[t] = i
	}
	var seeds []int
	for _, pair := range in.tris {
		for _, t := range pair {
			slices.Sort(t[:])
			if i, ok := index[t]; ok {
				seeds = append(seeds, i)
			}
		}
	}
	if len(seeds) == 0 {
		return 0, mesh.HoleStats{}, errors.New("no triangle of the surface among those TetGen names")
	}
	removed := s.RemoveAround(seeds, rings)
	st, err := s.FillHoles(0)
	return removed, st, err
}

// meshPlans meshes a closed surface, trying the sliver plans in turn
// while TetGen's mesh has slivers beyond repair or TetGen fails on the
// surface (a nearly degenerate one can stop it on an assertion).
func meshPlans(prog string, opt TetGenOptions, s *mesh.TriSurface, volume float64) (*mesh.TetMesh, []string, error) {
	var notes []string
	size := r3.Norm(s.Bounds().Size())
	short := s.ShortestEdge() < shortEdge*size
	if short {
		notes = append(notes, fmt.Sprintf("the surface has edges down to %.3g (%.2g of its size), far below the others", s.ShortestEdge(), s.ShortestEdge()/size))
	}
	// A surface with more points than the target is kept as it is: the
	// mesh cannot be coarser than it anyway.
	fine := opt.TargetNodes <= len(s.Nodes)
	var failed error
	var last sliverPlan
	for _, plan := range sliverPlans {
		if (short && plan.collapse == 0) || (fine && plan.collapse > 0 && !plan.keep) {
			continue
		}
		m, pnotes, err := plan.tetrahedralize(prog, opt, s, volume, size)
		if err == nil {
			return m, append(notes, pnotes...), nil
		}
		if ie := (*intersectError)(nil); errors.As(err, &ie) {
			ie.notes = append(slices.Clone(notes), ie.notes...)
			return nil, nil, err
		}
		var se *sliverError
		var ce *crashError
		sliver, crash := errors.As(err, &se), errors.As(err, &ce)
		switch {
		case !sliver && !crash:
			return nil, nil, err
		case failed != nil:
		case sliver:
			notes = append(notes, fmt.Sprintf("TetGen's first mesh had %s", se.what()))
		default:
			notes = append(notes, "TetGen failed on the first try "+ce.cause)
		}
		failed, last = err, plan
	}
	return nil, nil, fmt.Errorf("%w (with the surface's edges shorter than %g of its size merged)", failed, last.collapse)
}

// sliverPlan is one way of meshing a surface: the length (a fraction of
// its size) below which its edges are merged first, and whether TetGen
// must keep its triangles as they are (switch Y) rather than split them.
type sliverPlan struct {
	collapse float64
	keep     bool
}

// sliverPlans are tried in turn while TetGen's mesh has slivers that
// RepairSlivers cannot remove: the surface as given; its edges shorter
// than a thousandth of its size (shortEdge) merged; the same with its
// triangles kept; and with its edges shorter than a hundredth merged,
// its triangles kept. A surface with edges shorter than shortEdge starts
// at the second, and one with more points than the target node count
// skips the second.
var sliverPlans = []sliverPlan{{}, {collapse: shortEdge}, {collapse: shortEdge, keep: true}, {collapse: 10 * shortEdge, keep: true}}

// shortEdge is the length, relative to a surface's size (the diagonal of
// its bounding box), of an edge short enough to make TetGen's quality
// refinement cascade into degenerate tetrahedra: those of an edge's size
// are near the degenerate volume (mesh.DegenerateVolume is 10⁻¹² of the
// diagonal's cube).
const shortEdge = 1e-3

// tetrahedralize runs TetGen on the surface (closed, enclosing volume)
// as the plan says.
func (p sliverPlan) tetrahedralize(prog string, opt TetGenOptions, s *mesh.TriSurface, volume, size float64) (*mesh.TetMesh, []string, error) {
	var notes []string
	if p.collapse > 0 {
		s = &mesh.TriSurface{Nodes: slices.Clone(s.Nodes), Tris: slices.Clone(s.Tris)}
		merged := s.CollapseShortEdges(p.collapse * size)
		st, err := s.Close()
		if err != nil {
			return nil, nil, err
		}
		volume = st.Volume
		var note []string
		if merged > 0 {
			note = append(note, fmt.Sprintf("merged %s shorter than %.3g (%g of the size)", nouns(merged, "surface edge", "surface edges"), p.collapse*size, p.collapse))
		}
		if p.keep {
			note = append(note, "kept the surface's triangles as they are (TetGen -Y)")
		}
		if len(note) > 0 {
			notes = append(notes, strings.Join(note, " and "))
		}
	}
	run := &tetgenRun{prog: prog, opt: opt, surf: s, norm: normalizer(s.Bounds()), keep: p.keep, repairs: map[*mesh.TetMesh]mesh.SliverRepair{}}
	if err := run.prepare(); err != nil {
		return nil, nil, err
	}
	defer run.cleanup()
	m, err := run.mesh(volume)
	if err != nil {
		if ie := (*intersectError)(nil); errors.As(err, &ie) {
			ie.notes = notes
		}
		return nil, nil, err
	}
	notes = append(notes, run.summary(m))
	if rep := run.repairs[m]; rep.Found > 0 {
		var how []string
		if rep.Moved > 0 {
			how = append(how, "moved "+nouns(rep.Moved, "interior node", "interior nodes"))
		}
		if rep.Removed > 0 {
			how = append(how, "removed "+nouns(rep.Removed, "sliver", "slivers")+" at the surface")
		}
		notes = append(notes, fmt.Sprintf("worked around %s of TetGen's mesh (tetrahedra of volume ≤ %.3g): %s",
			nouns(rep.Found, "sliver", "slivers"), m.DegenerateVolume(), strings.Join(how, ", ")))
	}
	if note := run.checkVolume(m, volume); note != "" {
		notes = append(notes, note)
	}
	return m, notes, nil
}

// sliverError says that TetGen's mesh has degenerate tetrahedra that
// RepairSlivers leaves.
type sliverError struct {
	found, left int
	eps         float64
	where       r3.Vec
}

func (e *sliverError) what() string {
	return fmt.Sprintf("%s at or below the degenerate volume %.3g, %d of them beyond repair, the first near %s",
		nouns(e.found, "tetrahedron", "tetrahedra"), e.eps, e.left, fmtPoint(e.where))
}

func (e *sliverError) Error() string {
	return "tetgen: TetGen's mesh has " + e.what() + "; the surface is too fine or too uneven where it is to be filled with tetrahedra"
}

// normalize maps the surface into a box of unit size around the origin
// before TetGen sees it, so that its tolerances and the volume bound
// behave the same for a mesh in metres and one in micrometres; norm holds
// the centre and the scale to undo it.
type normalize struct {
	centre r3.Vec
	scale  float64
}

func normalizer(b r3.Box) normalize {
	ext := b.Size()
	s := math.Max(ext.X, math.Max(ext.Y, ext.Z))
	if !(s > 0) || math.IsInf(s, 0) {
		s = 1
	}
	return normalize{centre: r3.Scale(0.5, r3.Add(b.Min, b.Max)), scale: s}
}

func (n normalize) to(p r3.Vec) r3.Vec   { return r3.Scale(1/n.scale, r3.Sub(p, n.centre)) }
func (n normalize) from(p r3.Vec) r3.Vec { return r3.Add(r3.Scale(n.scale, p), n.centre) }

// tetgenRun is one tetrahedralisation: its temporary directory, the
// normalised input and the runs made.
type tetgenRun struct {
	prog    string
	opt     TetGenOptions
	surf    *mesh.TriSurface
	norm    normalize
	dir     string
	input   []byte // the .smesh file
	runs    int
	maxVol  float64 // volume bound of the last run, normalised units (0: none)
	elapsed time.Duration
	keep    bool                                // keep the surface's triangles (switch Y)
	repairs map[*mesh.TetMesh]mesh.SliverRepair // what RepairSlivers did to each mesh made
}

func (r *tetgenRun) prepare() error {
	dir, err := os.MkdirTemp("", "softgrasp-tetgen-")
	if err != nil {
		return fmt.Errorf("tetgen: %w", err)
	}
	r.dir = dir
	r.input = r.smesh()
	return os.WriteFile(filepath.Join(dir, "surface.smesh"), r.input, 0o600)
}

func (r *tetgenRun) cleanup() {
	if r.dir != "" {
		os.RemoveAll(r.dir)
	}
}

// tetgenMaxRuns bounds the runs that search for the volume bound giving
// the target node count.
const tetgenMaxRuns = 4

// mesh runs TetGen until the node count is within a fifth of the target
// (at most tetgenMaxRuns times) and returns the closest mesh. The node
// count falls with the volume bound, but in steps rather than smoothly
// (TetGen's quality refinement cascades), so the search scales the bound
// by the ratio found (within a factor of 4) until it has bounds on both
// sides of the target, then bisects between them in log scale.
func (r *tetgenRun) mesh(volume float64) (*mesh.TetMesh, error) {
	target := r.opt.TargetNodes
	if target <= len(r.surf.Nodes) {
		return r.once()
	}
	v := volume / (r.norm.scale * r.norm.scale * r.norm.scale)
	// A quality mesh under a volume bound a has tetrahedra of about a/4
	// on average and about 5 tetrahedra per node: a ≈ 0.7·V/N.
	r.maxVol = 0.7 * v / float64(target)
	var best *mesh.TetMesh
	bestMiss := math.Inf(1)
	tooMany, tooFew := 0.0, 0.0 // bounds known to give too many and too few nodes
	for run := 0; run < tetgenMaxRuns; run++ {
		m, err := r.once()
		if err != nil {
			if best != nil {
				return best, nil
			}
			return nil, err
		}
		ratio := float64(len(m.Nodes)) / float64(target)
		if miss := math.Abs(math.Log(ratio)); miss < bestMiss {
			best, bestMiss = m, miss
		}
		// Stop near the target, or when the search has used half the time
		// one run may take: the whole stays within about 1.5 timeouts.
		if (ratio > 0.8 && ratio < 1.2) || r.elapsed > r.opt.Timeout/2 {
			break
		}
		if ratio > 1 {
			tooMany = r.maxVol
		} else {
			tooFew = r.maxVol
		}
		if tooMany > 0 && tooFew > 0 {
			r.maxVol = math.Sqrt(tooMany * tooFew)
		} else {
			r.maxVol *= math.Min(4, math.Max(0.25, ratio))
		}
	}
	return best, nil
}

// switches returns TetGen's command line switches: a piecewise linear
// complex (p) meshed with the quality bound (q) and the volume bound (a),
// numbered from zero (z), without the .face file (F), quietly (Q), and if
// asked with the surface's triangles kept as they are (Y).
func (r *tetgenRun) switches() string {
	sw := "-pzFQ"
	if r.keep {
		sw += "Y"
	}
	sw += "q" + strconv.FormatFloat(r.opt.RadiusEdge, 'f', -1, 64) + "/" +
		strconv.FormatFloat(r.opt.MinDihedral, 'f', -1, 64)
	if r.maxVol > 0 {
		sw += "a" + strconv.FormatFloat(r.maxVol, 'f', -1, 64)
	}
	return sw
}

// once runs TetGen with the current switches (or takes the result from
// the cache) and reads its output.
func (r *tetgenRun) once() (*mesh.TetMesh, error) {
	sw := r.switches()
	if m, rep, ok := tetgenCache.get(r.input, sw); ok {
		r.runs++
		r.repairs[m] = rep
		return m, nil
	}
	out, err := r.exec(sw, r.opt.Timeout)
	r.runs++
	if err != nil {
		return nil, r.failure(err, out)
	}
	m, rep, err := r.read()
	if err != nil {
		return nil, err
	}
	tetgenCache.put(r.input, sw, m, rep)
	r.repairs[m] = rep
	return m, nil
}

// exec runs TetGen with the given switches on the input, within the
// timeout, and returns what it printed. TetGen prints through C stdio
// and, on a fatal error, aborts before flushing a pipe; stdbuf (GNU
// coreutils) makes its output line-buffered so that the message survives.
func (r *tetgenRun) exec(sw string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	name, args := r.prog, []string{sw, "surface.smesh"}
	if sb, err := exec.LookPath("stdbuf"); err == nil {
		name, args = sb, append([]string{"-oL", "-eL", r.prog}, args...)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.dir
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r.elapsed += time.Since(start)
	if ctx.Err() == context.DeadlineExceeded {
		return out.Bytes(), errTetGenTimeout
	}
	return out.Bytes(), err
}

var errTetGenTimeout = errors.New("timeout")

// read loads TetGen's .node and .ele output, maps it back to the
// surface's coordinates, orients the tetrahedra, works around their
// slivers (mesh.RepairSlivers) and validates them.
func (r *tetgenRun) read() (*mesh.TetMesh, mesh.SliverRepair, error) {
	var rep mesh.SliverRepair
	nodes, err := readTetGenNodes(filepath.Join(r.dir, "surface.1.node"))
	if err != nil {
		return nil, rep, err
	}
	tets, err := readTetGenElements(filepath.Join(r.dir, "surface.1.ele"), len(nodes))
	if err != nil {
		return nil, rep, err
	}
	if len(tets) == 0 {
		return nil, rep, fmt.Errorf("tetgen: TetGen made no tetrahedra: the surface encloses no volume")
	}
	for i, p := range nodes {
		nodes[i] = r.norm.from(p)
		// TetGen keeps the input points first and in order; give them
		// back their exact coordinates.
		if i < len(r.surf.Nodes) && r3.Norm(r3.Sub(nodes[i], r.surf.Nodes[i])) <= 1e-9*r.norm.scale {
			nodes[i] = r.surf.Nodes[i]
		}
	}
	m := &mesh.TetMesh{Nodes: nodes, Tets: tets}
	if err := mesh.CheckCoordinates(nodes); err != nil {
		return nil, rep, fmt.Errorf("tetgen: %w", err)
	}
	if rep = m.RepairSlivers(); rep.Left > 0 {
		e := &sliverError{found: rep.Found, left: rep.Left, eps: m.DegenerateVolume()}
		for _, t := range m.Tets {
			if m.TetVolume(t) <= e.eps {
				e.where = r3.Scale(0.25, r3.Add(r3.Add(nodes[t[0]], nodes[t[1]]), r3.Add(nodes[t[2]], nodes[t[3]])))
				break
			}
		}
		return nil, rep, e
	}
	b := builder{name: "tetgen", nodes: m.Nodes}
	for i, t := range m.Tets {
		b.addTet(t, i, i+2) // the line of tetrahedron i in the .ele file, when none was removed
	}
	out, err := b.finish()
	return out, rep, err
}

// summary is the note that says what TetGen made.
func (r *tetgenRun) summary(m *mesh.TetMesh) string {
	target := ""
	if r.opt.TargetNodes > 0 {
		target = fmt.Sprintf(", target %d nodes", r.opt.TargetNodes)
		if r.opt.TargetNodes <= len(r.surf.Nodes) {
			target += " (the surface alone has more points)"
		}
	}
	return fmt.Sprintf("tetrahedralised the closed surface (%d triangles, %d points) with TetGen: %d tetrahedra, %d nodes%s; radius-edge ratio ≤ %g, dihedral angles ≥ %g°",
		len(r.surf.Tris), len(r.surf.Nodes), len(m.Tets), len(m.Nodes), target, r.opt.RadiusEdge, r.opt.MinDihedral)
}
