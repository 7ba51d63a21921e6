package store

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
)

// CSV writes comma-separated values (RFC 4180, encoding/csv's dialect:
// fields with commas, quotes or line breaks are quoted, lines end in "\n").
// Like [JSONL] it is a trawl.Store, writing a [PageRecord] row per page
// given to Put, and a trawl.ItemSink, writing a row per item given to
// PutItem.
//
// The columns are fixed by the first record, and a header row naming them
// is written before it:
//
//   - a page (Put): the fields of PageRecord, named by their json tags
//     (url, status, depth, ...);
//   - a struct, or a pointer to one: its exported fields in declaration
//     order (the fields of an embedded struct in its place), named by the
//     field's `csv:"name"` tag, else its `json:"name"` tag, else the field
//     name; a tag of "-" leaves the field out;
//   - a map with string keys: its keys, sorted.
//
// Later records fill the columns by name: a column a record lacks is left
// empty, and a record with a field or key that is not a column is refused
// with an error naming it (nothing is written). So write one shape of
// record per file: pages to one CSV, items to another. Anything else (a
// string, a number, a slice) is refused. Values: strings as they are;
// numbers and booleans as strconv formats them; time.Time in RFC 3339 with
// nanoseconds; nil pointers and nil interfaces as empty cells; any other
// value (slice, map, nested struct) as its JSON encoding.
//
// NewCSV with FileOptions.Mode Append adds to an existing file and takes
// its first row as the header, so a resumed crawl continues the same
// columns. Buffering, crash safety
// and concurrency are JSONL's: a 64 KiB buffer written out when full, at
// most FileOptions.FlushInterval (1 s) after a row entered it, by Flush
// and by Close; rows written whole, so a hard kill loses at most the rows
// of the last second; safe for concurrent use.
type CSV struct {
	lw *lineWriter // its mu also guards header

	header []string       // nil until the first row
	index  map[string]int // column name -> position in header

	typesMu sync.Mutex
	types   map[reflect.Type][]csvField
}

// csvField is one column of a struct type: its name and the index path of
// its field.
type csvField struct {
	name  string
	index []int
}

// NewCSV opens path for a CSV store, creating it if needed. A file that
// exists and is not empty is refused unless opts.Mode is Append (its first
// row is then the header, and rows must fit its columns) or Overwrite.
// Close closes the file. opts may be nil.
func NewCSV(path string, opts *FileOptions) (*CSV, error) {
	f, err := openFile(path, opts)
	if err != nil {
		return nil, fmt.Errorf("store: csv: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: csv: %w", err)
	}
	header, err := csv.NewReader(f).Read()
	switch {
	case errors.Is(err, io.EOF):
		header = nil
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("store: csv: reading the header of %s: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: csv: %w", err)
	}
	c := &CSV{lw: newLineWriter(f, f, opts)}
	c.setHeader(header)
	return c, nil
}

// NewCSVWriter returns a CSV store writing to w, starting with a header
// row, flushed as a file is (FileOptions' defaults). Close flushes but does
// not close w.
func NewCSVWriter(w io.Writer) *CSV {
	return &CSV{lw: newLineWriter(w, nil, nil)}
}

func (c *CSV) setHeader(h []string) {
	if h == nil {
		return
	}
	c.header = h
	c.index = make(map[string]int, len(h))
	for i, name := range h {
		c.index[name] = i
	}
}

// Put writes p's [PageRecord] as a row.
func (c *CSV) Put(_ context.Context, p *trawl.Page) error {
	if err := c.write(NewPageRecord(p)); err != nil {
		return fmt.Errorf("store: csv: page %s: %w", p.URL, err)
	}
	return nil
}

// PutItem writes item (a struct, a pointer to one, or a map with string
// keys) as a row; see [CSV] for the columns.
func (c *CSV) PutItem(_ context.Context, item any) error {
	if err := c.write(item); err != nil {
		return fmt.Errorf("store: csv: item: %w", err)
	}
	return nil
}

func (c *CSV) write(item any) error {
	names, values, isMap, err := c.cells(item)
	if err != nil {
		return err
	}
	c.lw.mu.Lock()
	defer c.lw.mu.Unlock()
	if c.lw.closed {
		return errors.New("closed")
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if c.header == nil {
		h := names
		if isMap {
			h = slices.Clone(names)
			slices.Sort(h)
		}
		c.setHeader(h)
		_ = w.Write(h) // errors surface from Flush below
	}
	row := make([]string, len(c.header))
	for i, name := range names {
		col, ok := c.index[name]
		if !ok {
			return fmt.Errorf("%q is not a column (the columns are %s, fixed by the first record)", name, strings.Join(c.header, ","))
		}
		row[col] = values[i]
	}
	_ = w.Write(row)
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return c.lw.writeLine(buf.Bytes())
}

// cells returns item's column names and values, and whether it is a map.
func (c *CSV) cells(item any) (names, values []string, isMap bool, err error) {
	v := reflect.ValueOf(item)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, nil, false, errors.New("nil item")
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		fields := c.fieldsOf(v.Type())
		names = make([]string, len(fields))
		values = make([]string, len(fields))
		for i, f := range fields {
			names[i] = f.name
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil { // through a nil embedded pointer
				continue
			}
			if values[i], err = cell(fv); err != nil {
				return nil, nil, false, fmt.Errorf("field %s: %w", f.name, err)
			}
		}
		return names, values, false, nil
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, nil, false, fmt.Errorf("a map item must have string keys, not %s", v.Type().Key())
		}
		names = make([]string, 0, v.Len())
		values = make([]string, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			s, err := cell(it.Value())
			if err != nil {
				return nil, nil, false, fmt.Errorf("key %s: %w", it.Key().String(), err)
			}
			names = append(names, it.Key().String())
			values = append(values, s)
		}
		return names, values, true, nil
	case reflect.Invalid:
		return nil, nil, false, errors.New("nil item")
	}
	return nil, nil, false, fmt.Errorf("an item must be a struct or a map with string keys, not %s", v.Type())
}

func (c *CSV) fieldsOf(t reflect.Type) []csvField {
	c.typesMu.Lock()
	defer c.typesMu.Unlock()
	if f, ok := c.types[t]; ok {
		return f
	}
	var fields []csvField
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			idx := append(slices.Clone(index), i)
			name, tagged := columnName(sf)
			if name == "-" {
				continue
			}
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sf.Anonymous && !tagged && ft.Kind() == reflect.Struct {
				walk(ft, idx)
				continue
			}
			if !sf.IsExported() {
				continue
			}
			fields = append(fields, csvField{name: name, index: idx})
		}
	}
	walk(t, nil)
	if c.types == nil {
		c.types = make(map[reflect.Type][]csvField)
	}
	c.types[t] = fields
	return fields
}

// columnName returns a struct field's column name and whether a tag gave it.
func columnName(sf reflect.StructField) (string, bool) {
	for _, key := range []string{"csv", "json"} {
		if tag, ok := sf.Tag.Lookup(key); ok {
			name, _, _ := strings.Cut(tag, ",")
			if name != "" {
				return name, true
			}
		}
	}
	return sf.Name, false
}

var timeType = reflect.TypeFor[time.Time]()

// cell formats one value.
func cell(v reflect.Value) (string, error) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", nil
		}
		v = v.Elem()
	}
	if !v.CanInterface() { // reached through an unexported embedded struct
		return fmt.Sprint(v), nil
	}
	if v.Type() == timeType {
		t := v.Interface().(time.Time)
		if t.IsZero() {
			return "", nil
		}
		return t.Format(time.RFC3339Nano), nil
	}
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32), nil
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64), nil
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Flush writes the buffered rows to the file (or writer).
func (c *CSV) Flush() error {
	if err := c.lw.flush(); err != nil {
		return fmt.Errorf("store: csv: %w", err)
	}
	return nil
}

// Close flushes the buffer and closes the file NewCSV opened. Later Put
// and PutItem calls fail; a second Close does nothing.
func (c *CSV) Close() error {
	if err := c.lw.close(); err != nil {
		return fmt.Errorf("store: csv: %w", err)
	}
	return nil
}
