package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Writing thresholds back: the app edits a profile's alerts section in its
// file. Only that section is rewritten (its comments kept, as the YAML
// encoder writes them); every other line of the file, other profiles and
// comments included, is kept byte for byte. The new file is checked (the
// profile's alerts must resolve) before it replaces the old one, through a
// temporary file in the same directory renamed over it, so that a reader
// sees the old file or the new one, never a part.

// AlertsFile is where a profile's alert settings are written.
type AlertsFile struct {
	// File is the configuration file ("" for the built-in profile without
	// one); Profile the profile's name.
	File, Profile string
	// Would is where a file would go when there is none (Path).
	Would string
}

// AlertsFile says where the profile's alert settings are written.
func (c *Config) AlertsFile(getenv func(string) string) AlertsFile {
	return AlertsFile{File: c.File, Profile: c.Profile, Would: Path(getenv)}
}

// ErrNotWritten is what every refusal to write wraps.
var ErrNotWritten = errors.New("thresholds not changed")

// Set writes values (key to text, "" to remove the key) into the mapping
// at path under the profile's alerts section (an empty path is the
// section itself), creating what is missing, and returns the profile's
// alert settings as the file now says them. It refuses, and changes
// nothing, when the profile is the built-in one, the file cannot be
// written, or a value is wrong (the error then names the key and what is
// wrong).
func (f AlertsFile) Set(path []string, values map[string]string) (Alerts, error) {
	if f.File == "" {
		return Alerts{}, fmt.Errorf("%w: the built-in profile %q has no file; to keep thresholds, write a profile with an alerts: section in %s and start with it", ErrNotWritten, f.Profile, f.Would)
	}
	real, err := filepath.EvalSymlinks(f.File)
	if err != nil {
		return Alerts{}, fmt.Errorf("%w: %s: %v", ErrNotWritten, f.File, unwrapPathErr(err))
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return Alerts{}, fmt.Errorf("%w: cannot read %s: %v", ErrNotWritten, real, unwrapPathErr(err))
	}
	if w, err := os.OpenFile(real, os.O_WRONLY, 0); err != nil {
		return Alerts{}, fmt.Errorf("%w: %s is not writable: %v", ErrNotWritten, real, unwrapPathErr(err))
	} else {
		w.Close()
	}
	out, err := editAlerts(data, f.Profile, path, values)
	if err != nil {
		if errors.Is(err, errNoProfile) && f.Profile == SandboxProfile {
			return Alerts{}, fmt.Errorf("%w: the built-in profile %q is not in %s; to keep thresholds, write it there (environment: sandbox, with an alerts: section) and start with it", ErrNotWritten, f.Profile, real)
		}
		return Alerts{}, fmt.Errorf("%w: %s: %v", ErrNotWritten, real, err)
	}
	alerts, err := parseAlerts(real, out, f.Profile)
	if err != nil {
		return Alerts{}, fmt.Errorf("%w: %w", ErrNotWritten, err)
	}
	if bytes.Equal(out, data) {
		return alerts, nil // already so (a site's change read back): the file is left alone
	}
	if err := replaceFile(real, out); err != nil {
		return Alerts{}, fmt.Errorf("%w: %w", ErrNotWritten, err)
	}
	return alerts, nil
}

// replaceFile writes data to a temporary file beside name, with name's
// mode, syncs it and renames it over name.
func replaceFile(name string, data []byte) error {
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("cannot write beside %s: %v", name, unwrapPathErr(err))
	}
	defer os.Remove(tmp.Name()) // after a rename, nothing is there
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Chmod(st.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %v", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("replace %s: %v", name, unwrapPathErr(err))
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename lasts a crash
		d.Close()
	}
	return nil
}

// parseAlerts resolves the alerts of one profile of data, checking the
// file's shape (unknown keys, wrong types) but not the profile's
// endpoints and secrets: a saved threshold does not depend on them.
func parseAlerts(file string, data []byte, profile string) (Alerts, error) {
	out := DefaultAlerts()
	err := resolvePart(file, data, profile, func(r *resolver, rp *rawProfile) {
		r.alerts("profiles."+profile+".alerts", rp.Alerts, &out)
	})
	if err != nil {
		return Alerts{}, err
	}
	return out, nil
}

// resolvePart reads data as a file written back must read: its shape
// (unknown keys, wrong types), and one part of the profile, resolved by
// part, not its endpoints and secrets, which what is written does not
// depend on.
func resolvePart(file string, data []byte, profile string, part func(r *resolver, rp *rawProfile)) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Errors{{File: file, Msg: "not valid YAML: " + err.Error()}}
	}
	d := newDecoder(file)
	var raw rawFile
	if len(root.Content) > 0 {
		d.decode(&root, reflectValue(&raw), "")
	}
	if rp := raw.Profiles[profile]; rp != nil {
		part(&resolver{d: d, dir: filepath.Dir(file), getenv: os.Getenv}, rp)
	}
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

var errNoProfile = errors.New("no such profile")

// editAlerts returns data with the profile's alerts section changed.
func editAlerts(data []byte, profile string, path []string, values map[string]string) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, errNoProfile
	}
	_, profiles := lookup(root.Content[0], "profiles")
	if profiles == nil || profiles.Kind != yaml.MappingNode {
		return nil, errNoProfile
	}
	pk, pv := lookup(profiles, profile)
	if pv == nil || pv.Kind != yaml.MappingNode {
		return nil, errNoProfile
	}
	if pv.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("profiles.%s is written on one line ({...}): write its alerts: section by hand", profile)
	}
	lines := splitLines(data)
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n"
	}
	ak, av := lookup(pv, "alerts")
	indent := max(pv.Column-pk.Column, 2)
	if ak == nil {
		// A new section after the profile's last line, at its keys' column.
		ak = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "alerts"}
		av = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if err := setIn(av, path, values); err != nil {
			return nil, err
		}
		if len(av.Content) == 0 {
			return data, nil
		}
		block, err := encodeSection(ak, av, pv.Column-1, indent, eol)
		if err != nil {
			return nil, err
		}
		end := extent(lines, pv, pk.Column)
		return join(lines[:end], block, lines[end:]), nil
	}
	if av.Kind == yaml.ScalarNode && av.Tag == "!!null" {
		av.Kind, av.Tag, av.Value = yaml.MappingNode, "!!map", ""
	}
	if av.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("profiles.%s.alerts must be a mapping of keys", profile)
	}
	if av.Kind == yaml.MappingNode && av.Style&yaml.FlowStyle == 0 && len(av.Content) > 0 {
		indent = max(av.Column-ak.Column, 2)
	}
	start := ak.Line - 1
	end := extent(lines, av, ak.Column)
	end = max(end, ak.Line) // "alerts:" alone on its line
	av.Style = 0            // the section in block style, its inner mappings as they were
	if err := setIn(av, path, values); err != nil {
		return nil, err
	}
	// The comments above the key stay in the lines kept; those below the
	// section's last line (a foot comment) too.
	ak.HeadComment, ak.FootComment, av.FootComment = "", "", ""
	if len(av.Content) == 0 {
		return join(lines[:start], nil, lines[end:]), nil
	}
	block, err := encodeSection(ak, av, ak.Column-1, indent, eol)
	if err != nil {
		return nil, err
	}
	return join(lines[:start], block, lines[end:]), nil
}

// lookup finds key in a mapping node: its key and value nodes.
func lookup(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// setIn sets values in the mapping at path under m, creating mappings
// (one-line ones below the section) on the way; an empty value removes its
// key, and a mapping left empty is removed with its key.
func setIn(m *yaml.Node, path []string, values map[string]string) error {
	if len(path) > 0 {
		k, v := lookup(m, path[0])
		if v != nil && v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			v.Kind, v.Tag, v.Value = yaml.MappingNode, "!!map", ""
		}
		if v == nil {
			k = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: path[0]}
			v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
			if len(path) > 1 {
				v.Style = 0
			}
			m.Content = append(m.Content, k, v)
		}
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("%s must be a mapping of keys", path[0])
		}
		if err := setIn(v, path[1:], values); err != nil {
			return err
		}
		if len(v.Content) == 0 {
			removeKey(m, path[0])
		}
		return nil
	}
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range values {
			if !yield(k) {
				return
			}
		}
	}) {
		val := strings.TrimSpace(values[key])
		if val == "" {
			removeKey(m, key)
			continue
		}
		if _, v := lookup(m, key); v != nil {
			v.Kind, v.Value, v.Content = yaml.ScalarNode, val, nil
			v.Style, v.Tag = styleFor(v, key)
			continue
		}
		node := &yaml.Node{Kind: yaml.ScalarNode, Value: val}
		node.Style, node.Tag = styleFor(nil, key)
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, node)
	}
	return nil
}

// styleFor is how the value of key is written: amounts quoted, as the
// file's examples write them ("10000.00": a string, never read as a
// float), hours, percentages, counts and durations plain; a value that was
// quoted stays quoted.
func styleFor(old *yaml.Node, key string) (yaml.Style, string) {
	quoted := yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle
	if old != nil && old.Style&quoted != 0 {
		return old.Style & quoted, "!!str"
	}
	if strings.HasPrefix(key, "low_balance") {
		return yaml.DoubleQuotedStyle, "!!str"
	}
	return 0, ""
}

func removeKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// encodeSection writes key: value as YAML lines indented by col spaces.
func encodeSection(k, v *yaml.Node, col, indent int, eol string) ([][]byte, error) {
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(indent)
	if err := e.Encode(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, v}}); err != nil {
		return nil, err
	}
	if err := e.Close(); err != nil {
		return nil, err
	}
	pad := strings.Repeat(" ", col)
	var out [][]byte
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if l == "" {
			out = append(out, []byte(eol))
			continue
		}
		out = append(out, []byte(pad+l+eol))
	}
	return out, nil
}

// splitLines splits data into lines, each with its end of line.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// join puts lines back together; a kept last line without an end of line
// gets one when lines follow it.
func join(before, block, after [][]byte) []byte {
	var b bytes.Buffer
	for _, part := range [][][]byte{before, block, after} {
		for _, l := range part {
			if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
				b.WriteByte('\n')
			}
			b.Write(l)
		}
	}
	return b.Bytes()
}

// extent is the index of the first line after the node n, whose key is at
// column col: after its last descendant's line, the lines indented deeper
// than the key that follow (comments, a closing brace), blank lines among
// them, but not the blank lines that end them.
func extent(lines [][]byte, n *yaml.Node, col int) int {
	last := maxLine(n)
	end := last // index of the line after the last one in
	for i := last; i < len(lines); i++ {
		l := strings.TrimRight(string(lines[i]), "\r\n")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(l)-len(strings.TrimLeft(l, " ")) < col {
			break
		}
		end = i + 1
	}
	return end
}

func maxLine(n *yaml.Node) int {
	m := n.Line
	for _, c := range n.Content {
		m = max(m, maxLine(c))
	}
	return m
}
