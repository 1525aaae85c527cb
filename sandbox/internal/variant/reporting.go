package variant

import (
	"context"
	"mime"
	"net/http"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
)

// Paths of the reporting interface: the default face's download path, and
// the variant's (FilesPrefix + id + "." + csv or json).
const (
	pathDownload = "/v2/reports/download/"
	FilesPrefix  = "/files/"
)

// reporting serves report contents only at FilesPrefix{id}.{csv|json}
// (the download_link of GET /v2/reports/{id} points there; the default
// download path answers 404), with extra columns and empty receiver-side
// amounts for failed and declined payments; errors are wrapped.
type reporting struct {
	cfg Config
}

// fileExt is the extension of a /files/ request, carried to plan.
type fileExt struct{}

func (f reporting) before(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	p := r.URL.Path
	if strings.HasPrefix(p, pathDownload) {
		f.notFound(w, p)
		return r, true
	}
	name, ok := strings.CutPrefix(p, FilesPrefix)
	if !ok {
		return r, false
	}
	id, ext, _ := strings.Cut(name, ".")
	if ext != "csv" && ext != "json" || id == "" || strings.Contains(id, "/") {
		f.notFound(w, p)
		return r, true
	}
	r2 := r.Clone(context.WithValue(r.Context(), fileExt{}, ext))
	r2.URL.Path, r2.URL.RawPath = pathDownload+id, ""
	return r2, false
}

// notFound answers 404 USR_002 in the wrapped payments shape.
func (f reporting) notFound(w http.ResponseWriter, path string) {
	now := time.Now()
	if f.cfg.Now != nil {
		now = f.cfg.Now()
	}
	body := obj("code", "USR_002", "type", apierr.TypeNotFound, "status", itoaNumber(http.StatusNotFound),
		"timestamp", now.UTC().Format(time.RFC3339Nano), "title", "Resource Not Found",
		"description", "No operation GET "+simkit.Quoted(path)+" on the reporting interface.")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	w.Write(marshal(wrapPayments(http.StatusNotFound, body)))
}

func (f reporting) plan(r *http.Request, status int, h http.Header) plan {
	ext, _ := r.Context().Value(fileExt{}).(string)
	if ext == "" || status != http.StatusOK {
		return jsonPlan(h)
	}
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	switch {
	case ext == "csv" && mt == "text/csv":
		return plan{mode: streamed, transform: reshapeCSV}
	case ext == "json" && mt == "application/json":
		return plan{mode: streamed, transform: reshapeRowsJSON}
	}
	// The report exists in the other format only.
	return plan{mode: replaced, replace: func(w http.ResponseWriter) {
		w.Header().Del("Content-Disposition")
		f.notFound(w, FilesPrefix+strings.TrimPrefix(r.URL.Path, pathDownload)+"."+ext)
	}}
}

func (reporting) success(r *http.Request, v any) any {
	decorate(v, r.URL.Path)
	top, ok := v.(*object)
	if !ok {
		return v
	}
	link, ok := top.str("download_link")
	id, _ := top.str("id")
	format, _ := top.str("format")
	if i := strings.Index(link, pathDownload); ok && i >= 0 && id != "" {
		top.set("download_link", link[:i]+FilesPrefix+id+"."+strings.ToLower(format))
	}
	return v
}

func (reporting) failure(status int, h http.Header, v any) any { return wrapPayments(status, v) }
