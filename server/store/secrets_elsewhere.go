package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// secretFunc turns one secret value into another form (sealed, encoded).
type secretFunc func(string) (string, error)

// mapSecretsElsewhere applies line to the value of every hadoopProperties
// line whose key is named like a secret, and member to every string held
// by a member named like one among the members model.Configuration does not
// know, its own and its sheets', at any depth. properties are not touched:
// their callers treat them apart.
func mapSecretsElsewhere(cfg *model.Configuration, line, member secretFunc) error {
	hadoop, err := mapHadoopSecrets(cfg.HadoopProperties, line)
	if err != nil {
		return err
	}
	cfg.HadoopProperties = hadoop
	if cfg.Extra, err = mapMembers(cfg.Extra, member); err != nil {
		return err
	}
	if len(cfg.Sheets) == 0 {
		return nil
	}
	sheets := make([]model.Sheet, len(cfg.Sheets))
	copy(sheets, cfg.Sheets)
	for i := range sheets {
		if sheets[i].Extra, err = mapMembers(sheets[i].Extra, member); err != nil {
			return fmt.Errorf("sheet %s: %w", sheets[i].Name, err)
		}
	}
	cfg.Sheets = sheets
	return nil
}

// mapHadoopSecrets rewrites the values of the secret lines of a
// hadoopProperties string (key=value lines), keeping every other byte.
func mapHadoopSecrets(lines string, fn secretFunc) (string, error) {
	if !strings.Contains(lines, "=") {
		return lines, nil
	}
	var b strings.Builder
	for line := range strings.Lines(lines) {
		body := strings.TrimRight(line, "\r\n")
		key, value, ok := strings.Cut(body, "=")
		if name := strings.TrimSpace(key); ok && strings.TrimSpace(value) != "" && model.IsSecretProperty(name) {
			v, err := fn(strings.TrimSpace(value))
			if err != nil {
				return "", fmt.Errorf("hadoopProperties %s: %w", name, err)
			}
			body = key + "=" + v
		}
		b.WriteString(body)
		b.WriteString(line[len(strings.TrimRight(line, "\r\n")):])
	}
	return b.String(), nil
}

// mapMembers applies fn to the secrets of members kept verbatim; a member
// is decoded and written again only when it changes.
func mapMembers(extra map[string]json.RawMessage, fn secretFunc) (map[string]json.RawMessage, error) {
	var out map[string]json.RawMessage
	for name, raw := range extra {
		secret := model.IsSecretProperty(name)
		if !secret && !bytes.ContainsAny(raw, "{[") {
			continue // a scalar under a plain name holds no secret
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%w: member %s: %v", ErrBadInput, name, err)
		}
		v, changed, err := mapValue(v, secret, fn)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", name, err)
		}
		if !changed {
			continue
		}
		if out == nil {
			out = make(map[string]json.RawMessage, len(extra))
			for k, r := range extra {
				out[k] = r
			}
		}
		if out[name], err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("member %s: %w", name, err)
		}
	}
	if out == nil {
		return extra, nil
	}
	return out, nil
}

// mapValue applies fn to the strings of v that a secret's name holds:
// directly, or in an array, at any depth.
func mapValue(v any, secret bool, fn secretFunc) (any, bool, error) {
	switch t := v.(type) {
	case string:
		if !secret || t == "" {
			return t, false, nil
		}
		s, err := fn(t)
		return s, s != t, err
	case []any:
		changed := false
		for i, e := range t {
			e, c, err := mapValue(e, secret, fn)
			if err != nil {
				return nil, false, err
			}
			t[i], changed = e, changed || c
		}
		return t, changed, nil
	case map[string]any:
		changed := false
		for k, e := range t {
			e, c, err := mapValue(e, model.IsSecretProperty(k), fn)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %w", k, err)
			}
			t[k], changed = e, changed || c
		}
		return t, changed, nil
	}
	return v, false, nil
}

// sealedOnly is how a read shows a hadoopProperties secret: sealed as it
// is stored (a line cannot end in the encoded form's CRLF), and a value
// stored in plain text by an earlier version not at all.
func sealedOnly(v string) (string, error) {
	if strings.HasPrefix(v, securePrefix) {
		return v, nil
	}
	return "", nil
}

// encodeMember is how a read shows a secret member: encoded, as a
// property's secret.
func encodeMember(v string) (string, error) { return Encode(v), nil }

// MaskHadoopProperties is a stored hadoopProperties string as a read
// returns it: secret values sealed, never plain.
func MaskHadoopProperties(lines string) string {
	masked, _ := mapHadoopSecrets(lines, sealedOnly)
	return masked
}

// SameHadoopProperties reports whether sent is the stored hadoopProperties
// as a read returned them: a client sending back what it read changes
// nothing, though it never saw a secret stored in plain text.
func SameHadoopProperties(stored, sent string) bool {
	return MaskHadoopProperties(stored) == sent
}
