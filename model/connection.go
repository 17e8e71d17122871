package model

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

// SourceRef names an upstream file a configuration reads from.
type SourceRef struct {
	UUID string `json:"uuid,omitempty"`
	Path string `json:"path,omitempty"`
}

// Configuration is the JSON representation of a file of the tree: a
// connection (the spec's Connection read response), an import job, a data
// link, a workbook, an export job, an infographic or a file upload. Sources
// lists the files it depends on; connections have none.
type Configuration struct {
	Version    string              `json:"version"`
	ClassName  string              `json:"className"`
	File       FileInfo            `json:"file"`
	TypeID     string              `json:"typeId"`
	Properties map[string][]string `json:"properties"`
	DBType     *DBType             `json:"dbType,omitempty"`
	Sources    []SourceRef         `json:"sources,omitempty"`
}

// Connection is the read response of a connection.
type Connection = Configuration

// Property returns the first value of a property, or "".
func (c Configuration) Property(key string) string {
	if v := c.Properties[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Connection property keys seen on the wire.
const (
	PropUserName          = "user_name"
	PropPassword          = "password"
	PropConnectionURL     = "key.connectionUrl"
	PropDataStoreTemplate = "dataStoreTemplate"
	PropDataStoreUsage    = "dataStoreUsage"
)

// SecretProperties are the property keys whose values are secrets: stored
// encrypted, returned encoded, masked in the console.
var SecretProperties = []string{PropPassword, "ssh_key", "private_key", "secret_key", "access_key"}

// IsSecretProperty reports whether a property key holds a secret.
func IsSecretProperty(key string) bool {
	for _, s := range SecretProperties {
		if s == key {
			return true
		}
	}
	return false
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
