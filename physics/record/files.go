package record

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// File is a file a recorded run loaded (a mesh), embedded in the
// recording so that it replays where the file is not.
type File struct {
	Path   string `json:"path"`   // as the run named it
	SHA256 string `json:"sha256"` // of the content, hex
	Gzip   []byte `json:"gzip"`   // the content, gzip-compressed (base64 in JSON)
	// data is the content, once the reader has checked it (Content).
	data []byte
}

// compress returns data gzip-compressed.
func compress(data []byte) []byte {
	var z bytes.Buffer
	gz := gzip.NewWriter(&z)
	gz.Write(data)
	gz.Close()
	return z.Bytes()
}

// Content returns the file's content, checked against its hash.
func (f File) Content() ([]byte, error) {
	if f.data != nil {
		return f.data, nil
	}
	gz, err := gzip.NewReader(bytes.NewReader(f.Gzip))
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", f.Path, err)
	}
	data, err := io.ReadAll(gz)
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", f.Path, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != f.SHA256 {
		return nil, fmt.Errorf("embedded %s: its content does not match its sha256 %s", f.Path, f.SHA256)
	}
	return data, nil
}

// embedFiles writes a file line for each file cfg loads that the
// recording does not hold yet (by path and content). A file that cannot
// be read is not embedded: the run failed to load it too, and the replay
// fails the same way.
func (w *Writer) embedFiles(cfg *settings.Scenario) {
	for _, p := range cfg.Files() {
		if *p == "" {
			continue
		}
		data, err := os.ReadFile(*p)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(data)
		f := File{Path: *p, SHA256: hex.EncodeToString(sum[:])}
		key := f.Path + "\x00" + f.SHA256
		if w.embedded[key] {
			continue // compressed once per path and content
		}
		w.embedded[key] = true
		f.Gzip = compress(data)
		w.writeJSON(line{File: &f})
	}
}

// Materialise writes the recording's embedded files under dir and points
// the configuration and every scene command at those copies, so that the
// replay loads what the recorded run loaded whether or not the files are
// still where they were. A path the recording holds no file for is left
// as it is.
func (r *Recording) Materialise(dir string) error {
	copies := make([]string, len(r.Files)) // by file index
	for i, f := range r.Files {
		data, err := f.Content()
		if err != nil {
			return err
		}
		sub := filepath.Join(dir, fmt.Sprintf("%d", i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		path := filepath.Join(sub, filepath.Base(f.Path))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		copies[i] = path
	}
	point := func(cfg *settings.Scenario, files map[string]int) {
		for _, p := range cfg.Files() {
			if i, ok := files[*p]; ok {
				*p = copies[i]
			}
		}
	}
	point(&r.Config, r.configFiles)
	for i := range r.Commands {
		if c, ok := r.Commands[i].Command.(frame.SetScene); ok {
			point(&c.Config, r.Commands[i].files)
			r.Commands[i].Command = c
		}
	}
	return nil
}
