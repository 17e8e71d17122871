package model

// Flags are the access flags of a group or of others. Reads carry
// `executable` too, as the real platform sends it.
type Flags struct {
	Executable bool `json:"executable"`
	Readable   bool `json:"readable"`
	Writable   bool `json:"writable"`
}

// Permission is the read response of `.../permission`.
type Permission struct {
	Others Flags  `json:"others"`
	Owner  string `json:"owner"`
	Links  Links  `json:"_links"`
}

// GroupPermissions is the read response of `.../permission/groups`.
type GroupPermissions struct {
	Links    Links     `json:"_links"`
	Embedded GroupList `json:"_embedded"`
}

// GroupList is the `_embedded` object of a group permissions read; the real
// platform leaves it out when there are no groups.
type GroupList struct {
	Groups []GroupPermission `json:"groups"`
}

// GroupPermission is one group entry, and the body of a group create or change.
type GroupPermission struct {
	Name  string `json:"name"`
	Flags Flags  `json:"flags"`
	Links Links  `json:"_links,omitempty"`
}

// OthersPermission is the read response of `.../permission/others` and the
// body of its change.
type OthersPermission struct {
	Executable bool  `json:"executable"`
	Readable   bool  `json:"readable"`
	Writable   bool  `json:"writable"`
	Links      Links `json:"_links,omitempty"`
}

// Owner is the read response of `.../permission/owner` and the body of its change.
type Owner struct {
	Owner string `json:"owner"`
	Links Links  `json:"_links,omitempty"`
}
