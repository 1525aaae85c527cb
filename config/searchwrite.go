package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Saving a view (:save) appends a saved search to the profile's searches:
// in its file, as the thresholds are written (alertswrite.go): every line
// of the file is kept byte for byte, comments and other profiles
// included; the entry's lines are inserted after the section's last
// item, or a searches: section after the profile's last line; the new
// file must read (the profile's searches resolve) before it replaces the
// old one, through a temporary file renamed over it.

// ErrNotSaved is what every refusal to save a view wraps.
var ErrNotSaved = errors.New("view not saved")

// SaveSearch appends s to profile's saved searches in file and returns
// the line its entry starts on. A title the profile's searches hold
// already (in any case) is refused, and so is a file that is not there or
// cannot be written, or a section written on one line.
func SaveSearch(file, profile string, s Search) (int, error) {
	if file == "" {
		return 0, fmt.Errorf("%w: the profile %q has no file (the built-in one): write a configuration file and start with it (--config)", ErrNotSaved, profile)
	}
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %v", ErrNotSaved, file, unwrapPathErr(err))
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return 0, fmt.Errorf("%w: cannot read %s: %v", ErrNotSaved, real, unwrapPathErr(err))
	}
	out, line, err := addSearch(data, profile, s)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %v", ErrNotSaved, real, err)
	}
	if err := checkSearches(real, out, profile); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotSaved, err)
	}
	if err := replaceFile(real, out); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotSaved, err)
	}
	return line, nil
}

// searchNode is s as a mapping, its keys in the order docs/configuration.md writes
// them, those not set left out.
func searchNode(s Search) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, v)
	}
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
	add("title", str(s.Title))
	add("view", str(s.View))
	if s.Search != "" {
		add("search", str(s.Search))
	}
	if s.Window != "" {
		add("window", str(s.Window))
	}
	if len(s.Columns) > 0 {
		cols := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, c := range s.Columns {
			cols.Content = append(cols.Content, str(c))
		}
		add("columns", cols)
	}
	if s.Sort != "" {
		sort := s.Sort
		if s.SortDesc {
			sort += " desc"
		}
		add("sort", str(sort))
	}
	return m
}

// addSearch returns data with s added to profile's searches, and the
// line of its entry.
func addSearch(data []byte, profile string, s Search) ([]byte, int, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, 0, fmt.Errorf("not valid YAML: %v", err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, 0, errNoProfile
	}
	_, profiles := lookup(root.Content[0], "profiles")
	if profiles == nil || profiles.Kind != yaml.MappingNode {
		return nil, 0, errNoProfile
	}
	pk, pv := lookup(profiles, profile)
	if pv == nil || pv.Kind != yaml.MappingNode {
		return nil, 0, fmt.Errorf("no profile %q in the file", profile)
	}
	if pv.Style&yaml.FlowStyle != 0 {
		return nil, 0, fmt.Errorf("profiles.%s is written on one line ({...}): add the search by hand", profile)
	}
	lines := splitLines(data)
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n"
	}
	entry := searchNode(s)
	sk, sv := lookup(pv, "searches")
	indent := max(pv.Column-pk.Column, 2)
	switch {
	case sk == nil || sv.Kind == yaml.ScalarNode && sv.Tag == "!!null":
		// A new section: after the profile's last line, or in place of a
		// "searches:" with nothing under it.
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "searches"}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}}
		block, err := encodeSection(key, seq, pv.Column-1, indent, eol)
		if err != nil {
			return nil, 0, err
		}
		at := extent(lines, pv, pk.Column)
		if sk != nil {
			at = sk.Line - 1
			return join(lines[:at], block, lines[at+1:]), at + 2, nil
		}
		return join(lines[:at], block, lines[at:]), at + 2, nil
	case sv.Kind != yaml.SequenceNode:
		return nil, 0, fmt.Errorf("profiles.%s.searches must be a list", profile)
	case sv.Style&yaml.FlowStyle != 0:
		return nil, 0, fmt.Errorf("profiles.%s.searches is written on one line ([...]): add the search by hand", profile)
	}
	for _, item := range sv.Content {
		if _, t := lookup(item, "title"); t != nil && strings.EqualFold(strings.TrimSpace(t.Value), s.Title) {
			return nil, 0, fmt.Errorf("a saved search is titled %q already (line %d): choose another title", t.Value, t.Line)
		}
	}
	// The new item's lines, as the encoder writes an item of a list, at
	// the column of the list's dashes.
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(indent)
	if err := e.Encode(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}}); err != nil {
		return nil, 0, err
	}
	_ = e.Close()
	pad := strings.Repeat(" ", sv.Column-1)
	var block [][]byte
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		block = append(block, []byte(pad+l+eol))
	}
	at := extent(lines, sv, sv.Column+1)
	return join(lines[:at], block, lines[at:]), at + 1, nil
}

// checkSearches reads the profile's saved searches of data as the start
// would (their form; what the views check is checked at the start).
func checkSearches(file string, data []byte, profile string) error {
	return resolvePart(file, data, profile, func(r *resolver, rp *rawProfile) {
		r.searches("profiles."+profile+".searches", rp.Searches)
	})
}
