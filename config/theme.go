package config

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ThemeNames are the built-in skins (theme: in a profile); the first is
// the default. ThemeColorNames are the colours a theme file may set.
// The dashboard (ui) holds their colours.
func ThemeNames() []string {
	return []string{"default", "dark", "light", "high-contrast", "colorblind"}
}

func ThemeColorNames() []string {
	return []string{"title", "muted", "accent", "ok", "warn", "bad", "badge_text", "badge_test", "badge_ro", "border",
		"button", "series1", "series2", "series3", "series4", "series5", "series6"}
}

// Theme is a profile's skin: a built-in by name, and the colours a theme
// file sets over it (each "#rrggbb", for a light and a dark background).
type Theme struct {
	Name   string
	Colors map[string][2]string
}

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// theme resolves theme: (at key): a built-in's name, or a theme file
// (a path ending .yaml or .yml, relative to the configuration's
// directory) of the form
//
//	base: dark            # optional: the built-in it changes
//	colors:
//	  ok: "#00aa00"       # one colour for both backgrounds
//	  bad: {light: "#aa0000", dark: "#ff5555"}
//
// Every problem names the file and line.
func (r *resolver) theme(key, v string) Theme {
	if v == "" {
		return Theme{Name: "default"}
	}
	if !strings.HasSuffix(v, ".yaml") && !strings.HasSuffix(v, ".yml") {
		if !slices.Contains(ThemeNames(), v) {
			r.d.at(key, "no such theme %q: one of %s, or a theme file (.yaml)", v, strings.Join(ThemeNames(), ", "))
		}
		return Theme{Name: v}
	}
	p := r.path(v)
	b, err := os.ReadFile(p)
	if err != nil {
		r.d.at(key, "cannot read the theme file %s: %v", p, unwrapPathErr(err))
		return Theme{Name: "default"}
	}
	d := newDecoder(p)
	defer func() { r.d.errs = append(r.d.errs, d.errs...) }()
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		d.errf("", 0, "%v", err)
		return Theme{Name: "default"}
	}
	t := Theme{Name: "default", Colors: map[string][2]string{}}
	if len(doc.Content) == 0 {
		return t
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		d.errAt("", top, "a theme file is a mapping (base:, colors:), not %s", kindName(top))
		return t
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, val := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "base":
			if !slices.Contains(ThemeNames(), val.Value) {
				d.errAt("base", val, "no such theme %q: one of %s", val.Value, strings.Join(ThemeNames(), ", "))
				continue
			}
			t.Name = val.Value
		case "colors":
			if val.Kind != yaml.MappingNode {
				d.errAt("colors", val, "a mapping of colour names, not %s", kindName(val))
				continue
			}
			for j := 0; j+1 < len(val.Content); j += 2 {
				name, c := val.Content[j], val.Content[j+1]
				ck := "colors." + name.Value
				if !slices.Contains(ThemeColorNames(), name.Value) {
					d.errAt(ck, name, "no such colour %q: one of %s", name.Value, strings.Join(ThemeColorNames(), ", "))
					continue
				}
				if pair, ok := colorPair(d, ck, c); ok {
					t.Colors[name.Value] = pair
				}
			}
		default:
			d.errAt(k.Value, k, "unknown key %q (base, colors)", k.Value)
		}
	}
	return t
}

// colorPair reads one colour: "#rrggbb", or {light: …, dark: …}.
func colorPair(d *decoder, key string, n *yaml.Node) ([2]string, bool) {
	check := func(n *yaml.Node) bool {
		if n.Kind != yaml.ScalarNode || !hexColor.MatchString(n.Value) {
			d.errAt(key, n, "a colour is \"#rrggbb\", not %s", kindName(n))
			return false
		}
		return true
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if check(n) {
			return [2]string{n.Value, n.Value}, true
		}
	case yaml.MappingNode:
		var out [2]string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			slot := slices.Index([]string{"light", "dark"}, k.Value)
			if slot < 0 {
				d.errAt(key, k, "unknown key %q (light, dark)", k.Value)
				return out, false
			}
			if !check(v) {
				return out, false
			}
			out[slot] = v.Value
		}
		if out[0] == "" || out[1] == "" {
			d.errAt(key, n, "both light: and dark: are needed")
			return out, false
		}
		return out, true
	default:
		d.errAt(key, n, "a colour is \"#rrggbb\" or {light, dark}, not %s", kindName(n))
	}
	return [2]string{}, false
}

// String names the theme for messages.
func (t Theme) String() string {
	if len(t.Colors) == 0 {
		return t.Name
	}
	return fmt.Sprintf("%s with %d colours of a theme file", t.Name, len(t.Colors))
}
