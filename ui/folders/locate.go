package folders

import (
	"path"
	"slices"
	"strings"
)

// CurrentPath implements common.PathResolver: the folder under the cursor
// (or holding the file under it), against which `:cd` resolves a relative path.
func (p *Pane) CurrentPath() string {
	n := p.selected()
	if n != nil && n.isFile() {
		n = n.parent
	}
	if n == nil {
		return "/"
	}
	return n.path()
}

// CompletePath implements common.PathResolver: the paths of the folders read
// so far that extend prefix (an absolute path) by one segment, sorted. It
// reads nothing: folders not opened yet are not offered.
func (p *Pane) CompletePath(prefix string) []string {
	if p.tree.root == nil || !strings.HasPrefix(prefix, "/") {
		return nil
	}
	dir, partial := path.Split(prefix)
	at := p.tree.root
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		if seg == "" {
			continue
		}
		if at = at.child(seg); at == nil {
			return nil
		}
	}
	var out []string
	for _, c := range at.children {
		if strings.HasPrefix(c.name, partial) {
			out = append(out, c.path())
		}
	}
	slices.Sort(out)
	return out
}
