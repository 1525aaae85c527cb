package config

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	yaml4 "go.yaml.in/yaml/v4"
)

// syntaxError says where a configuration file that is not valid YAML is
// wrong, as file:line:col of the fault. go.yaml.in/yaml/v3 (which decodes
// the file) says only a line, and not always the right one: a key left
// without its colon is reported on the line after it, an indentation
// fault on the line its mapping started. v4 of the same library keeps the
// mark of the problem and of what it was parsing; this reads those, and
// moves a missing colon's mark to the key that lacks it.
func syntaxError(file string, data []byte, decodeErr error) *Error {
	var n yaml4.Node
	var le *yaml4.LoadError
	if err := yaml4.Unmarshal(data, &n); !errors.As(err, &le) || le.Mark.Line == 0 {
		return &Error{File: file, Msg: "not valid YAML: " + strings.TrimPrefix(decodeErr.Error(), "yaml: ")}
	}
	line, col, msg := le.Mark.Line, le.Mark.Column, le.Message
	if c := le.ContextMark; le.ContextMsg != "" && c.Line > 0 && (c.Line != line || c.Column != col) {
		msg += fmt.Sprintf(" (%s that starts at %d:%d)", le.ContextMsg, c.Line, c.Column)
	}
	if strings.HasPrefix(le.Message, "mapping values are not allowed") {
		if l, c, key, ok := colonless(data, line); ok {
			line, col = l, c
			msg = fmt.Sprintf("%q has no ':' after it, so the line after it is read as more of it", key)
		}
	}
	if le.Message == "found character that cannot start any token" && tabAt(data, line, col) {
		msg = "a tab: YAML indents with spaces only"
	}
	return &Error{File: file, Line: line, Col: col, Msg: "not valid YAML: " + msg}
}

// colonless finds, before line (from 1), the last line that holds text and
// no ':' (a key written without its colon, not a list item or a comment):
// its line, the column just after its text, and the text.
func colonless(data []byte, line int) (int, int, string, bool) {
	lines := bytes.Split(data, []byte("\n"))
	for i := min(line, len(lines)) - 2; i >= 0; i-- {
		raw := strings.TrimRight(string(lines[i]), "\r")
		text := strings.TrimSpace(raw)
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
			continue
		case strings.Contains(text, ":") || strings.HasPrefix(text, "-"):
			return 0, 0, "", false
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		return i + 1, indent + len(text) + 1, text, true
	}
	return 0, 0, "", false
}

// tabAt reports whether the character at line:col (from 1) is a tab.
func tabAt(data []byte, line, col int) bool {
	lines := bytes.Split(data, []byte("\n"))
	return line <= len(lines) && col >= 1 && col <= len(lines[line-1]) && lines[line-1][col-1] == '\t'
}
