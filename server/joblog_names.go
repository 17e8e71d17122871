package server

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// unseenName stands in a job's log or reason for a path or URL its reader
// may not see.
const unseenName = "(a file you may not see)"

// maxNamedSources bounds the files unseenNames looks at: a job's sources
// and theirs, which is what its log and reasons may name.
const maxNamedSources = 1000

// unseenNames returns what hides, from the text of a job's log or reason,
// the names the reader may not see. The log is written once, for whoever
// ran the job, and read by anyone who may read the job: it names the files
// the job reads from (its links and, for upstream runs, theirs) and their
// connections' URLs, any of which may be hidden from the reader. An
// administrator sees everything; a reader who sees every source gets the
// text as it is.
func (s *Server) unseenNames(ctx context.Context, user store.User, f store.File) (*strings.Replacer, error) {
	if user.Admin {
		return nil, nil
	}
	var names []string
	seen := map[int64]bool{f.ID: true}
	for queue := []int64{f.ID}; len(queue) > 0 && len(seen) < maxNamedSources; queue = queue[1:] {
		sources, err := s.store.Sources(ctx, queue[0])
		if err != nil {
			return nil, err
		}
		for _, src := range sources {
			if seen[src.ID] {
				continue
			}
			seen[src.ID] = true
			queue = append(queue, src.ID)
			_, visible, err := s.store.Access(ctx, user, src)
			if err != nil {
				return nil, err
			}
			if visible {
				continue
			}
			names = append(names, src.Path)
			if src.Kind == model.KindConnection {
				urls, err := s.connectionURLs(ctx, src)
				if err != nil {
					return nil, err
				}
				names = append(names, urls...)
			}
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	// Longest first: a hidden path may begin another.
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	pairs := make([]string, 0, 2*len(names))
	for _, n := range names {
		pairs = append(pairs, n, unseenName)
	}
	return strings.NewReplacer(pairs...), nil
}

// connectionURLs are the forms in which a log may quote a connection's
// URL: as it is, quoted, and the local path it names.
func (s *Server) connectionURLs(ctx context.Context, conn store.File) ([]string, error) {
	cfg, err := s.store.Configuration(ctx, conn)
	if err != nil {
		return nil, err
	}
	raw := cfg.Property(model.PropConnectionURL)
	if raw == "" {
		return nil, nil
	}
	out := []string{raw}
	if quoted := strconv.Quote(raw); quoted[1:len(quoted)-1] != raw {
		out = append(out, quoted[1:len(quoted)-1])
	}
	local := strings.TrimPrefix(raw, "jdbc:sqlite:")
	if u, err := url.Parse(local); err == nil && (u.Scheme == "file" || u.Scheme == "") && len(u.Path) > 1 {
		out = append(out, u.Path)
	}
	return out, nil
}

// hideUnseen hides in texts what the reader may not see of job f's sources.
// Empty texts (a status without a reason, polled often) cost nothing.
func (s *Server) hideUnseen(ctx context.Context, user store.User, f store.File, texts ...*string) error {
	if !slices.ContainsFunc(texts, func(t *string) bool { return *t != "" }) {
		return nil
	}
	names, err := s.unseenNames(ctx, user, f)
	if err != nil || names == nil {
		return err
	}
	for _, t := range texts {
		*t = names.Replace(*t)
	}
	return nil
}
