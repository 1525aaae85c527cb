package ui

// A Skin is the colours of a theme, by name, each for a light and a
// dark background: every colour the program draws with is one of these
// (NewTheme makes the styles of them), so a skin (the profile's theme:,
// whose names config.ThemeNames and ThemeColorNames list)
// changes all of them and nothing else has a colour of its own.
type Skin map[string]Pair

// Pair is a colour ("#rrggbb") for a light background and for a dark one.
type Pair struct{ Light, Dark string }

// BuiltinSkin is the built-in skin named name: default follows the
// terminal's background; dark and light keep their colours whatever it
// is; high-contrast is pure colours at full strength; colorblind is the
// Okabe–Ito palette, told apart with any colour vision (the environment
// badge and the health marks are told apart by their text too).
func BuiltinSkin(name string) (Skin, bool) {
	def := Skin{
		"title": {"#1f4e8c", "#7aa2f7"}, "muted": {"#6b6b6b", "#8a8a8a"}, "accent": {"#7c3aed", "#bb9af7"},
		"ok": {"#15803d", "#9ece6a"}, "warn": {"#a16207", "#e0af68"}, "bad": {"#b91c1c", "#f7768e"},
		"badge_text": {"#ffffff", "#1a1b26"}, "badge_test": {"#15803d", "#9ece6a"}, "badge_ro": {"#6b6b6b", "#a9b1d6"},
		"border": {"#9ca3af", "#414868"}, "button": {"#374151", "#c0caf5"},
		"series1": {"#1f4e8c", "#7aa2f7"}, "series2": {"#15803d", "#9ece6a"}, "series3": {"#a16207", "#e0af68"},
		"series4": {"#7c3aed", "#bb9af7"}, "series5": {"#b91c1c", "#f7768e"}, "series6": {"#0e7490", "#7dcfff"},
	}
	switch name {
	case "", "default":
		return def, true
	case "dark", "light":
		out := Skin{}
		for k, p := range def {
			c := p.Dark
			if name == "light" {
				c = p.Light
			}
			out[k] = Pair{c, c}
		}
		return out, true
	case "high-contrast":
		return Skin{
			"title": {"#000080", "#00ffff"}, "muted": {"#000000", "#ffffff"}, "accent": {"#800080", "#ff00ff"},
			"ok": {"#006400", "#00ff00"}, "warn": {"#8b4500", "#ffff00"}, "bad": {"#cc0000", "#ff3333"},
			"badge_text": {"#ffffff", "#000000"}, "badge_test": {"#006400", "#00ff00"}, "badge_ro": {"#000000", "#ffffff"},
			"border": {"#000000", "#ffffff"}, "button": {"#000000", "#ffffff"},
			"series1": {"#000080", "#00ffff"}, "series2": {"#006400", "#00ff00"}, "series3": {"#8b4500", "#ffff00"},
			"series4": {"#800080", "#ff00ff"}, "series5": {"#cc0000", "#ff3333"}, "series6": {"#000000", "#ffffff"},
		}, true
	case "colorblind":
		// Okabe–Ito: blue, bluish green, orange, reddish purple,
		// vermillion, sky blue; ok and bad are blue and vermillion, never
		// green against red.
		return Skin{
			"title": {"#0072b2", "#56b4e9"}, "muted": {"#6b6b6b", "#9a9a9a"}, "accent": {"#cc79a7", "#cc79a7"},
			"ok": {"#0072b2", "#56b4e9"}, "warn": {"#b07800", "#e69f00"}, "bad": {"#d55e00", "#d55e00"},
			"badge_text": {"#ffffff", "#000000"}, "badge_test": {"#0072b2", "#56b4e9"}, "badge_ro": {"#6b6b6b", "#9a9a9a"},
			"border": {"#9ca3af", "#5a5a5a"}, "button": {"#374151", "#e0e0e0"},
			"series1": {"#0072b2", "#56b4e9"}, "series2": {"#009e73", "#009e73"}, "series3": {"#b07800", "#e69f00"},
			"series4": {"#cc79a7", "#cc79a7"}, "series5": {"#d55e00", "#d55e00"}, "series6": {"#6b6b6b", "#f0e442"},
		}, true
	}
	return nil, false
}

// SkinOf is the skin a profile names (theme:, as config checked it): the
// built-in named, with a theme file's colours over it.
func SkinOf(name string, colors map[string][2]string) Skin {
	p, ok := BuiltinSkin(name)
	if !ok {
		p, _ = BuiltinSkin("default")
	}
	for k, c := range colors {
		p[k] = Pair{Light: c[0], Dark: c[1]}
	}
	return p
}
