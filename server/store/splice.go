package store

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/dapconsole/dapconsole/model"
)

// spliceRepresentation makes the representation of a file without links
// from its stored JSON without decoding it: the empty file member replaced
// by the file's, each secret value by its encoded form, every other member
// copied. It takes only stored JSON in the form storedJSON writes, where
// decoding and encoding again (configurationOf, EncodeSecrets,
// json.Marshal) would give back the same bytes: compact, the known members
// spelled and ordered as model.Configuration declares them, the others
// after them in sorted order, strings escaped as json.Marshal escapes them.
// Anything else (a link, the legacy sources, a hand-edited or older form)
// gives false, and the caller decodes. FuzzSpliceMatchesDecoding holds the
// two paths to the same bytes.
func spliceRepresentation(stored string, f File) ([]byte, bool) {
	file, err := json.Marshal(model.FileInfo{UUID: f.UUID, Path: f.Path, Description: f.Description, Name: f.BaseName()})
	if err != nil {
		return nil, false
	}
	s := splicer{in: stored, out: make([]byte, 0, len(stored)+len(file))}
	if !s.configuration(file) {
		return nil, false
	}
	return s.out, true
}

// configuration reads a whole configuration, writing each member as
// member does; file is the file member to write, when not toStored.
func (s *splicer) configuration(file []byte) bool {
	if !s.take('{') {
		return false
	}
	next := 0 // the index in storedMembers a known member may have, at least
	lastExtra := ""
	for first := true; !s.take('}'); first = false {
		if !first && !s.take(',') {
			return false
		}
		name, ok := s.plainString()
		if !ok || !s.take(':') {
			return false
		}
		known := memberIndex(name)
		switch {
		case known >= 0 && known >= next && lastExtra == "":
			for ; next < known; next++ { // the members skipped must be ones json.Marshal leaves out when empty
				if !storedMembers[next].omitEmpty {
					return false
				}
			}
			next++
			if !s.member(storedMembers[known].value, storedMembers[known].omitEmpty, file) {
				return false
			}
		case known < 0 && isASCII(name) && !knownName(name) && name > lastExtra && !model.IsSecretProperty(name):
			lastExtra = name
			if !s.skipValue(0) {
				return false
			}
		default: // a known name out of order, in another case, twice, or a link
			return false
		}
	}
	for ; next < len(storedMembers); next++ {
		if !storedMembers[next].omitEmpty {
			return false
		}
	}
	return s.pos == len(s.in)
}

// memberValue is the shape a known member's value must have to be copied.
type memberValue int

const (
	stringValue memberValue = iota
	integerValue
	emptyFileValue // replaced by the file's own member
	propertiesValue
	dbTypeValue
	hadoopValue // a string; one holding a secret is left to the decoding path
)

// storedMembers are the members of model.Configuration that a file without
// links stores, in their declared order (json.Marshal's). Its links
// (dataStore, connection, sheet, sheets) are left out: a stored link must be rewritten.
var storedMembers = []struct {
	name      string
	value     memberValue
	omitEmpty bool
}{
	{"version", stringValue, false},
	{"className", stringValue, false},
	{"file", emptyFileValue, false},
	{"typeId", stringValue, true},
	{"pullType", stringValue, true},
	{"minKeepCount", integerValue, true},
	{"properties", propertiesValue, false},
	{"hadoopProperties", hadoopValue, true},
	{"dbType", dbTypeValue, true},
}

// emptyFileMember is the file member storedJSON writes.
var emptyFileMember = func() string {
	b, _ := json.Marshal(model.FileInfo{})
	return string(b)
}()

func memberIndex(name string) int {
	for i, m := range storedMembers {
		if m.name == name {
			return i
		}
	}
	return -1
}

// isASCII: encoding/json matches names by Unicode case folding (the
// Kelvin sign is a k), which only ASCII names keep simple.
func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// knownName reports whether encoding/json would read a member of this name
// into a field of model.Configuration (it matches names in any case), or
// it is the legacy sources.
func knownName(name string) bool {
	lower := strings.ToLower(name)
	if lower == legacySources {
		return true
	}
	for _, field := range configurationFields {
		if field == lower {
			return true
		}
	}
	return false
}

// legacySources is the member that held the links of earlier versions.
const legacySources = "sources"

// configurationFields are the lower-cased JSON names of model.Configuration's fields.
var configurationFields = func() []string {
	var names []string
	for _, m := range storedMembers {
		names = append(names, strings.ToLower(m.name))
	}
	return append(names, "datastore", "connection", "sheet", "sheets")
}()

// storedRepresentation is spliceRepresentation the other way: the stored
// form of a representation of a file without links, as encodeConfig makes
// it, without decoding it: the file member read (into file) and written
// empty, each secret value through seal (nil copies it). It takes only a
// representation in the form spliceRepresentation writes, with secret
// values seal takes; anything else gives false, and the caller decodes.
// FuzzStoredRepresentationMatchesDecoding holds the two paths to the same bytes.
// It appends the stored form to out.
func storedRepresentation(out, representation []byte, seal func(string) (string, bool)) (stored []byte, file model.FileInfo, ok bool) {
	s := splicer{in: string(representation), out: out, toStored: true, seal: seal}
	if !s.configuration(nil) {
		return nil, file, false
	}
	return s.out, s.file, true
}

// splicer reads stored JSON and writes the representation, or (toStored)
// the other way.
type splicer struct {
	in  string
	pos int
	out []byte
	// toStored reads a representation: its file member goes into file,
	// its secret values through seal.
	toStored bool
	file     model.FileInfo
	seal     func(string) (string, bool)
}

// take copies c when it comes next.
func (s *splicer) take(c byte) bool {
	if s.pos < len(s.in) && s.in[s.pos] == c {
		s.out = append(s.out, c)
		s.pos++
		return true
	}
	return false
}

// member copies (or, for the file, replaces) a known member's value.
func (s *splicer) member(value memberValue, omitEmpty bool, file []byte) bool {
	switch value {
	case stringValue:
		v, ok := s.canonicalString()
		return ok && !(omitEmpty && v == `""`)
	case hadoopValue:
		v, ok := s.stringText()
		return ok && v != "" && !holdsHadoopSecret(v)
	case integerValue:
		return s.integer()
	case emptyFileValue:
		if s.toStored {
			return s.readFile()
		}
		if !strings.HasPrefix(s.in[s.pos:], emptyFileMember) {
			return false
		}
		s.pos += len(emptyFileMember)
		s.out = append(s.out, file...)
		return true
	case propertiesValue:
		return s.properties()
	case dbTypeValue:
		if !s.take('{') {
			return false
		}
		name, ok := s.plainString()
		if !ok || name != "name" || !s.take(':') {
			return false
		}
		_, ok = s.canonicalString()
		return ok && s.take('}')
	}
	return false
}

// properties copies the properties object, each secret's values encoded.
// json.Marshal writes a map's keys sorted, once each.
func (s *splicer) properties() bool {
	if !s.take('{') {
		return false // null: EncodeSecrets would write {}
	}
	last := ""
	for first := true; !s.take('}'); first = false {
		if !first && !s.take(',') {
			return false
		}
		key, ok := s.plainString() // an escaped key is left to encoding/json
		if !ok || !s.take(':') || (!first && key <= last) {
			return false
		}
		last = key
		if !s.take('[') {
			return false // null: EncodeSecrets would write [] for a secret
		}
		secret := model.IsSecretProperty(key)
		for firstValue := true; !s.take(']'); firstValue = false {
			if !firstValue && !s.take(',') {
				return false
			}
			if !secret {
				if _, ok := s.canonicalString(); !ok {
					return false
				}
				continue
			}
			mark := len(s.out)
			v, ok := s.secretValue()
			if !ok {
				return false
			}
			encoded, err := json.Marshal(v)
			if err != nil {
				return false
			}
			s.out = append(s.out[:mark], encoded...)
		}
	}
	return true
}

// secretValue reads a secret's value and returns what to write instead:
// its encoded form in a representation, what seal makes of it in the
// stored form.
func (s *splicer) secretValue() (string, bool) {
	if !s.toStored {
		v, ok := s.plainString()
		return Encode(v), ok
	}
	v, ok := s.stringText()
	if ok && s.seal != nil {
		v, ok = s.seal(v)
	}
	return v, ok
}

// fileMembers are model.FileInfo's members, in the order json.Marshal writes them.
var fileMembers = [...]string{"uuid", "path", "description", "name"}

// readFile reads a representation's file member, as json.Marshal writes a
// model.FileInfo, into s.file, and writes the empty member instead.
func (s *splicer) readFile() bool {
	mark := len(s.out)
	if !s.take('{') {
		return false
	}
	for k, field := range [...]*string{&s.file.UUID, &s.file.Path, &s.file.Description, &s.file.Name} {
		if k > 0 && !s.take(',') {
			return false
		}
		name, ok := s.plainString()
		if !ok || name != fileMembers[k] || !s.take(':') {
			return false
		}
		if *field, ok = s.stringText(); !ok {
			return false
		}
	}
	if !s.take('}') {
		return false
	}
	s.out = append(s.out[:mark], emptyFileMember...)
	return true
}

// stringText copies a string token json.Marshal would write the same way
// again, and returns its text.
func (s *splicer) stringText() (string, bool) {
	token, ok := s.canonicalString()
	if !ok {
		return "", false
	}
	if !strings.Contains(token, `\`) {
		return token[1 : len(token)-1], true
	}
	if text, ok := shortEscaped(token); ok {
		return text, true
	}
	var text string
	return text, json.Unmarshal([]byte(token), &text) == nil
}

// plainString copies a string token without escapes whose characters
// json.Marshal writes as they are, and returns its text.
func (s *splicer) plainString() (string, bool) {
	if s.pos >= len(s.in) || s.in[s.pos] != '"' {
		return "", false
	}
	for i := s.pos + 1; i < len(s.in); {
		if s.in[i] == '"' {
			text := s.in[s.pos+1 : i]
			s.out = append(s.out, s.in[s.pos:i+1]...)
			s.pos = i + 1
			return text, true
		}
		size := writtenAsIs(s.in, i)
		if size == 0 {
			return "", false
		}
		i += size
	}
	return "", false
}

// writtenAsIs returns the size of the character at in[i] when json.Marshal
// writes it as it is inside a string, 0 when it escapes it (or it is the
// quote or backslash that a token's text cannot hold unescaped).
func writtenAsIs(in string, i int) int {
	if c := in[i]; c < utf8.RuneSelf {
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return 0
		}
		return 1
	}
	r, size := utf8.DecodeRuneInString(in[i:])
	if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
		return 0
	}
	return size
}

// shortEscaped returns the text of a string token whose escapes are all
// ones json.Marshal writes as a backslash and a letter (\" \\ \n \r \t)
// and whose other characters it writes as they are: a token json.Marshal
// writes so. Any other token gives false.
func shortEscaped(token string) (string, bool) {
	var text strings.Builder
	text.Grow(len(token))
	for i := 1; i < len(token)-1; {
		if token[i] != '\\' {
			size := writtenAsIs(token, i)
			if size == 0 {
				return "", false
			}
			text.WriteString(token[i : i+size])
			i += size
			continue
		}
		if i+1 >= len(token)-1 {
			return "", false
		}
		switch c := token[i+1]; c {
		case '"', '\\':
			text.WriteByte(c)
		case 'n':
			text.WriteByte('\n')
		case 'r':
			text.WriteByte('\r')
		case 't':
			text.WriteByte('\t')
		default:
			return "", false
		}
		i += 2
	}
	return text.String(), true
}

// canonicalString copies a string token that json.Marshal would write the
// same way again, and returns the token.
func (s *splicer) canonicalString() (string, bool) {
	start, mark := s.pos, len(s.out)
	if _, ok := s.plainString(); ok {
		return s.in[start:s.pos], true
	}
	// An escape: one json.Marshal writes short, or decode the token and
	// encode it again to compare.
	end := s.stringEnd()
	if end < 0 {
		return "", false
	}
	token := s.in[start:end]
	if _, short := shortEscaped(token); !short {
		var text string
		if json.Unmarshal([]byte(token), &text) != nil {
			return "", false
		}
		again, err := json.Marshal(text)
		if err != nil || string(again) != token {
			return "", false
		}
	}
	s.out = append(s.out[:mark], token...)
	s.pos = end
	return token, true
}

// stringEnd returns the offset after the string token at pos, -1 if none.
func (s *splicer) stringEnd() int {
	if s.pos >= len(s.in) || s.in[s.pos] != '"' {
		return -1
	}
	for i := s.pos + 1; i < len(s.in); i++ {
		switch s.in[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// integer copies an integer as json.Marshal writes an int.
func (s *splicer) integer() bool {
	start := s.pos
	if s.pos < len(s.in) && s.in[s.pos] == '-' {
		s.pos++
	}
	digits := s.pos
	for s.pos < len(s.in) && s.in[s.pos] >= '0' && s.in[s.pos] <= '9' {
		s.pos++
	}
	n := s.pos - digits
	text := s.in[start:s.pos]
	if n == 0 || n > 18 || (s.in[digits] == '0' && (n > 1 || digits > start)) {
		return false
	}
	s.out = append(s.out, text...)
	return true
}

// maxDepth bounds the nesting skipValue follows; deeper values are left
// to encoding/json.
const maxDepth = 100

// skipValue copies any JSON value that json.Marshal would copy unchanged
// from a json.RawMessage: valid and compact, with no character it escapes
// for HTML (<, >, &, U+2028, U+2029) left unescaped.
func (s *splicer) skipValue(depth int) bool {
	if s.pos >= len(s.in) || depth > maxDepth {
		return false
	}
	switch c := s.in[s.pos]; {
	case c == '{':
		s.take('{')
		for first := true; !s.take('}'); first = false {
			if !first && !s.take(',') {
				return false
			}
			start := s.pos
			if !s.rawString() || !plainName(s.in[start:s.pos]) || !s.take(':') || !s.skipValue(depth+1) {
				return false
			}
		}
		return true
	case c == '[':
		s.take('[')
		for first := true; !s.take(']'); first = false {
			if !first && !s.take(',') {
				return false
			}
			if !s.skipValue(depth + 1) {
				return false
			}
		}
		return true
	case c == '"':
		return s.rawString()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

// plainName reports whether a member's name token holds no escape and no
// secret's name: a secret member is left to the decoding path, which
// seals or encodes it.
func plainName(token string) bool {
	return !strings.Contains(token, `\`) && !model.IsSecretProperty(token[1:len(token)-1])
}

// holdsHadoopSecret reports whether a hadoopProperties string has a secret
// line (mapSecretsElsewhere seals or masks its value).
func holdsHadoopSecret(lines string) bool {
	found := false
	mapHadoopSecrets(lines, func(v string) (string, error) { found = true; return v, nil })
	return found
}

// rawString copies a valid string token whose escapes are kept as they are
// (json.RawMessage), refusing what json.Marshal would escape.
func (s *splicer) rawString() bool {
	if s.pos >= len(s.in) || s.in[s.pos] != '"' {
		return false
	}
	for i := s.pos + 1; i < len(s.in); {
		c := s.in[i]
		switch {
		case c == '"':
			s.out = append(s.out, s.in[s.pos:i+1]...)
			s.pos = i + 1
			return true
		case c == '\\':
			if i+1 >= len(s.in) {
				return false
			}
			switch s.in[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.in) || !isHex(s.in[i+2:i+6]) {
					return false
				}
				i += 6
			default:
				return false
			}
		case c < utf8.RuneSelf:
			if c < 0x20 || c == '<' || c == '>' || c == '&' {
				return false
			}
			i++
		default:
			r, size := utf8.DecodeRuneInString(s.in[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return false
			}
			i += size
		}
	}
	return false
}

func isHex(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func (s *splicer) literal(word string) bool {
	if !strings.HasPrefix(s.in[s.pos:], word) {
		return false
	}
	s.out = append(s.out, word...)
	s.pos += len(word)
	return true
}

// number copies a number token of JSON's grammar.
func (s *splicer) number() bool {
	start := s.pos
	digits := func() int {
		n := 0
		for s.pos < len(s.in) && s.in[s.pos] >= '0' && s.in[s.pos] <= '9' {
			s.pos++
			n++
		}
		return n
	}
	if s.pos < len(s.in) && s.in[s.pos] == '-' {
		s.pos++
	}
	intStart := s.pos
	n := digits()
	if n == 0 || (n > 1 && s.in[intStart] == '0') {
		return false
	}
	if s.pos < len(s.in) && s.in[s.pos] == '.' {
		s.pos++
		if digits() == 0 {
			return false
		}
	}
	if s.pos < len(s.in) && (s.in[s.pos] == 'e' || s.in[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.in) && (s.in[s.pos] == '+' || s.in[s.pos] == '-') {
			s.pos++
		}
		if digits() == 0 {
			return false
		}
	}
	s.out = append(s.out, s.in[start:s.pos]...)
	return true
}
