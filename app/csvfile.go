package main

import (
	"encoding/csv"
	"fmt"
	"os"
)

// csvFile is one CSV output of a run (-csv, -contacts, -newton-csv),
// its errors named after its flag.
type csvFile struct {
	flag string
	f    *os.File
	w    *csv.Writer
}

// createCSV creates the file at path and writes its header.
func createCSV(flag, path string, header []string) (csvFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return csvFile{}, fmt.Errorf("-%s: %w", flag, err)
	}
	c := csvFile{flag: flag, f: f, w: csv.NewWriter(f)}
	if err := c.write(header); err != nil {
		f.Close()
		return csvFile{}, err
	}
	return c, nil
}

// write appends one row.
func (c *csvFile) write(row []string) error {
	if err := c.w.Write(row); err != nil {
		return fmt.Errorf("-%s: %w", c.flag, err)
	}
	return nil
}

// close flushes the rows and closes the file.
func (c *csvFile) close() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		c.f.Close()
		return fmt.Errorf("-%s: %w", c.flag, err)
	}
	return c.f.Close()
}
