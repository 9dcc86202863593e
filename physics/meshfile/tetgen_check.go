package meshfile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// What to say when TetGen fails, and when its mesh does not fill the
// surface: TetGen stops on a self-intersecting surface without saying why
// (it aborts), so the diagnosis is a second, cheap run with its -d switch,
// which only detects intersecting facets.

// diagnoseTimeout bounds the diagnostic run.
const diagnoseTimeout = 20 * time.Second

// failure turns a failed TetGen run into a message.
func (r *tetgenRun) failure(err error, out []byte) error {
	if inter, ok := r.intersections(); ok && inter.pairs > 0 {
		return &intersectError{in: inter, surf: r.surf}
	}
	if err == errTetGenTimeout {
		return fmt.Errorf("tetgen: TetGen did not finish within %v (stopped); ask for fewer DOFs or simplify the surface", r.opt.Timeout)
	}
	return &crashError{fmt.Sprintf("(%v)%s", err, lastLines(out))}
}

// crashError says that TetGen failed for another reason than a
// self-intersection or the time bound: on a nearly degenerate surface it
// may stop on one of its own assertions.
type crashError struct{ cause string }

func (e *crashError) Error() string { return "tetgen: TetGen failed " + e.cause }

// lastLines quotes the end of TetGen's output for a message.
func lastLines(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var keep []string
	for _, l := range lines[max(0, len(lines)-3):] {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "Opening ") {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return ": " + strings.Join(keep, " / ")
}

// intersectError says that TetGen stopped on a surface that intersects
// itself: surf, the surface TetGen ran on (the triangles of in are its),
// and the notes that say how it was made from the one given.
type intersectError struct {
	in    intersection
	surf  *mesh.TriSurface
	notes []string
}

func (e *intersectError) Error() string {
	return fmt.Sprintf("tetgen: %s; a self-intersecting surface bounds no volume that TetGen can fill", e.in)
}

// intersection is what TetGen's -d run found.
type intersection struct {
	pairs int
	tris  [][2][3]int // the pairs of intersecting triangles listed, by their corners
	where r3.Vec      // a point of the first pair
}

func (in intersection) String() string {
	return fmt.Sprintf("the surface intersects itself: TetGen finds %d pairs of intersecting triangles, the first near %s",
		in.pairs, fmtPoint(in.where))
}

// fmtPoint formats a point for a message.
func fmtPoint(p r3.Vec) string { return fmt.Sprintf("(%.6g, %.6g, %.6g)", p.X, p.Y, p.Z) }

var (
	reFound = regexp.MustCompile(`Found (\d+) pairs of faces`)
	rePair  = regexp.MustCompile(`\(\s*(\d+),\s*(\d+),\s*(\d+)\)\s*and\s*\(\s*(\d+),\s*(\d+),\s*(\d+)\)`)
)

// intersections runs TetGen -d on the input; ok is false when the run
// itself fails.
func (r *tetgenRun) intersections() (intersection, bool) {
	var in intersection
	out, err := r.exec("-pdz", diagnoseTimeout)
	if err != nil {
		return in, false
	}
	if bytes.Contains(out, []byte("No faces are intersecting")) {
		return in, true
	}
	m := reFound.FindSubmatch(out)
	if m == nil {
		return in, false
	}
	in.pairs, _ = strconv.Atoi(string(m[1]))
	for i, p := range rePair.FindAllSubmatch(out, -1) {
		var c r3.Vec
		var pair [2][3]int
		for k := 0; k < 6; k++ {
			v, _ := strconv.Atoi(string(p[1+k]))
			pair[k/3][k%3] = v
			if v >= 0 && v < len(r.surf.Nodes) {
				c = r3.Add(c, r.surf.Nodes[v])
			}
		}
		if i == 0 {
			in.where = r3.Scale(1.0/6, c)
		}
		in.tris = append(in.tris, pair)
	}
	return in, true
}

// checkVolume compares the volume of TetGen's mesh with the volume the
// surface encloses. They agree to rounding for a clean surface; when they
// do not, TetGen has meshed a surface it had to interpret, and the note
// says so (with what -d finds, if anything).
func (r *tetgenRun) checkVolume(m *mesh.TetMesh, want float64) string {
	got := m.Volume()
	if want <= 0 || math.Abs(got-want) <= 1e-6*want {
		return ""
	}
	note := fmt.Sprintf("TetGen's mesh holds %.4g%% of the volume the surface encloses", 100*got/want)
	if in, ok := r.intersections(); ok && in.pairs > 0 {
		note += "; " + in.String() + ", and TetGen meshed it anyway: check the result"
	}
	return note
}

// tetgenCache keeps the last few tetrahedralisations, keyed by the exact
// TetGen input and switches: a reset or a change of scenario rebuilds the
// scene from its file, and must not wait for TetGen again.
var tetgenCache = &meshCache{max: 4}

type meshCache struct {
	mu      sync.Mutex
	max     int
	entries []cacheEntry // most recent last
}

type cacheEntry struct {
	key    [32]byte
	mesh   *mesh.TetMesh
	repair mesh.SliverRepair
}

func cacheKey(input []byte, switches string) [32]byte {
	h := sha256.New()
	h.Write([]byte(switches))
	h.Write([]byte{0})
	h.Write(input)
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// get returns a copy of the cached mesh and what RepairSlivers did to it.
func (c *meshCache) get(input []byte, switches string) (*mesh.TetMesh, mesh.SliverRepair, bool) {
	k := cacheKey(input, switches)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == k {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e.mesh.Clone(), e.repair, true
		}
	}
	return nil, mesh.SliverRepair{}, false
}

// put stores a copy of m.
func (c *meshCache) put(input []byte, switches string, m *mesh.TetMesh, rep mesh.SliverRepair) {
	k := cacheKey(input, switches)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, cacheEntry{key: k, mesh: m.Clone(), repair: rep})
}
