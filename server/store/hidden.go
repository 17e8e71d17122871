package store

import (
	"context"

	"github.com/dapconsole/dapconsole/model"
)

// HiddenSources returns the sources of files that v's user may not see.
func (v *Visibility) HiddenSources(ctx context.Context, files []File, sources map[int64][]File) (map[int64]bool, error) {
	hidden := map[int64]bool{}
	for _, f := range files {
		for _, src := range sources[f.ID] {
			if _, judged := hidden[src.ID]; judged {
				continue
			}
			visible, err := v.Visible(ctx, src)
			if err != nil {
				return nil, err
			}
			hidden[src.ID] = !visible
		}
	}
	return hidden, nil
}

// MaskHiddenLinks names the links to hidden sources by UUID alone, so that a
// read or a backup tells nothing of the names and folders of files the
// user may not see. sources are the configuration's, in link order.
func MaskHiddenLinks(cfg *model.Configuration, sources []File, hidden map[int64]bool) {
	links := cfg.Links()
	if len(links) != len(sources) {
		return
	}
	masked := false
	for i, src := range sources {
		if hidden[src.ID] {
			links[i], masked = model.SourceRef{UUID: src.UUID}, true
		}
	}
	if masked {
		cfg.SetLinks(links)
	}
}
