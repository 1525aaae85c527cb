package config

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"slices"

	"go.yaml.in/yaml/v3"
)

// ProfileNames lists, sorted, the profiles of the configuration file o
// names (the built-in sandbox profile when there is no file), without
// resolving any of them: what a shell completes after --profile. A file
// that cannot be read or parsed gives none.
func ProfileNames(o Options) []string {
	file, _ := o.file()
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{SandboxProfile}
	}
	if err != nil {
		return nil
	}
	var doc struct {
		Profiles map[string]yaml.Node `yaml:"profiles"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	return slices.Sorted(maps.Keys(doc.Profiles))
}
