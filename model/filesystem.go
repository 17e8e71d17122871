package model

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// File is the read response of `/api/filesystem/files/<id>`: a file's entry,
// without its configuration. Its self link names the file id.
type File struct {
	Name string `json:"name"`
	UUID string `json:"uuid"`
	Path string `json:"path,omitempty"`
	// Tags are what the SetTags command (FileCommand) gave the file.
	Tags  []string `json:"tags,omitempty"`
	Links Links    `json:"_links"`
}

// FileCommand is the body of `PUT /api/filesystem/files/<id>/command`:
// `{_type: SetTags, tags: [...]}` replaces the file's tags.
type FileCommand struct {
	Type string   `json:"_type"`
	Tags []string `json:"tags"`
}

// CommandSetTags is the FileCommand type that sets a file's tags.
const CommandSetTags = "SetTags"

// ID returns the file id at the end of the file's self link (0 if none).
func (f File) ID() int64 { return IDFromHref(f.Links.Href("self")) }

// FolderName is the body of a folder create (under a parent) and of a rename.
type FolderName struct {
	Name string `json:"name"`
}

// FolderParent is the body of a folder move. The real platform takes the new
// parent as a path, a UUID (strings) or a file id (a number).
type FolderParent struct {
	ParentFolder ParentRef `json:"parentFolder"`
}

// ParentRef is a folder reference sent as a JSON string (path or UUID) or
// number (file id); Ref holds it as text either way.
type ParentRef struct {
	Ref string
}

// MarshalJSON writes a file id as a number, anything else as a string.
func (p ParentRef) MarshalJSON() ([]byte, error) {
	if id, err := strconv.ParseInt(p.Ref, 10, 64); err == nil {
		return json.Marshal(id)
	}
	return json.Marshal(p.Ref)
}

// UnmarshalJSON takes a string or an integer.
func (p *ParentRef) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		p.Ref = s
		return nil
	}
	var id int64
	if err := json.Unmarshal(b, &id); err != nil {
		return fmt.Errorf("parentFolder: want a path, a UUID or a file id, got %s", b)
	}
	p.Ref = strconv.FormatInt(id, 10)
	return nil
}
