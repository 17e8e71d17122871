package model

import (
	"strconv"
	"strings"
)

// Link is one entry of a HAL `_links` object.
type Link struct {
	Href string `json:"href"`
}

// Links is a HAL `_links` object. A map rather than a struct because the real
// platform names the same link `folder` on folders and `file` on files.
type Links map[string]Link

// Href returns the href of the named link, or "" when it is absent.
func (l Links) Href(name string) string { return l[name].Href }

// Folder is the read response of the root folder and of any folder.
type Folder struct {
	Name     string         `json:"name"`
	UUID     string         `json:"uuid"`
	Links    Links          `json:"_links"`
	Embedded FolderChildren `json:"_embedded"`
}

// FolderChildren is the `_embedded` object of a folder read.
type FolderChildren struct {
	Folders []FolderEntry `json:"folders"`
}

// FolderEntry is one child folder as a folder read embeds it.
type FolderEntry struct {
	Name  string `json:"name"`
	Links Links  `json:"_links"`
}

// ID returns the file id at the end of the entry's self link (0 if none).
func (e FolderEntry) ID() int64 { return IDFromHref(e.Links.Href("self")) }

// ID returns the file id at the end of the folder's self link; the root's
// self link names no id, so its id is read from its permission link.
func (f Folder) ID() int64 {
	if id := IDFromHref(f.Links.Href("self")); id != 0 {
		return id
	}
	return IDFromHref(strings.TrimSuffix(f.Links.Href("permission"), "/permission"))
}

// ParentID returns the file id of the folder's parent, 0 for the root.
func (f Folder) ParentID() int64 { return IDFromHref(f.Links.Href("parent")) }

// IDFromHref returns the integer last segment of an href, or 0.
func IDFromHref(href string) int64 {
	href = strings.TrimRight(href, "/")
	id, err := strconv.ParseInt(href[strings.LastIndexByte(href, '/')+1:], 10, 64)
	if err != nil {
		return 0
	}
	return id
}
