package ui

// Typing is a view that takes typed text now (a form's field has the
// focus): the shell then hands it every key, "q", ":", digits and esc
// included, but ctrl+c, which still quits. The view gives the focus back
// (Typing false) when its form closes.
type Typing interface {
	Typing() bool
}
