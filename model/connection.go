package model

import (
	"slices"
	"strings"
)

// FileInfo is the `file` object of a configuration's representation.
type FileInfo struct {
	UUID        string `json:"uuid"`
	Path        string `json:"path"`
	Description string `json:"description"`
	Name        string `json:"name"`
}

// DBType is the database kind of a database connection.
type DBType struct {
	Name string `json:"name"`
}

// Connection is the read response of a connection.
type Connection = Configuration

// Connection property keys seen on the wire.
const (
	PropUserName          = "user_name"
	PropPassword          = "password"
	PropConnectionURL     = "key.connectionUrl"
	PropDataStoreTemplate = "dataStoreTemplate"
	PropDataStoreUsage    = "dataStoreUsage"
)

// secretNames are property keys the real platform keeps secret whose names
// do not end in password, secret or key.
var secretNames = []string{"sshkey", "tableau.password"}

// IsSecretProperty reports whether a property key holds a secret: stored
// sealed, returned encoded, masked in the console. Those are sshKey,
// tableau.password and every key whose name ends in password, secret or key,
// whatever its case (user.password, secret_key, ssh_key, accessKey).
func IsSecretProperty(key string) bool {
	key = strings.ToLower(key)
	for _, suffix := range []string{"password", "secret", "key"} {
		if strings.HasSuffix(key, suffix) {
			return true
		}
	}
	return slices.Contains(secretNames, key)
}

// FileEntry is one entry of a per-kind list: the connections list of the
// spec, and the import job, data link, workbook, export job and infographic
// lists of the real platform, which have the same shape. ID is the
// configuration id.
type FileEntry struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
	UUID        string `json:"uuid"`
}

// ConnectionEntry is one entry of the connections list.
type ConnectionEntry = FileEntry

// ConnectionCreated is the answer of a connection create.
type ConnectionCreated struct {
	ConfigurationID int64  `json:"configuration-id"`
	Status          string `json:"status"`
}

// DependencyFile is the `file` object of a dependency entry.
type DependencyFile struct {
	Path        string `json:"path"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	UUID        string `json:"uuid"`
}

// Dependency is one entry of a dependencies answer; ID is its configuration id.
type Dependency struct {
	ID   int64          `json:"id"`
	File DependencyFile `json:"file"`
}

// Dependencies is the answer of the dependencies endpoints.
type Dependencies struct {
	Dependencies []Dependency `json:"dependencies"`
}

// Directions of the dependencies endpoints; "" asks for both.
const (
	DirectionUpstream   = "upstream"
	DirectionDownstream = "downstream"
)
