package lenient

import (
	"bytes"
	"fmt"
	"regexp"
)

// maxDepth bounds nesting as encoding/json does, so a hostile body of
// brackets cannot grow the stack without end.
const maxDepth = 10000

// SyntaxError tells where a body stops being readable, even leniently.
type SyntaxError struct {
	Offset int // byte offset of the problem
	msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.Offset) }

// Strict returns one JSON value written as Gson's lenient reader accepts it
// as strict JSON with the same meaning. Besides JSON it accepts, as Gson
// does: names and string values unquoted or in single quotes; `=` or `=>`
// between a name and its value; `;` between members and elements; an
// omitted array element as null (`[1,,2]`); comments (`//`, `#` to the end
// of the line, `/* */`); control characters inside quotes. An unquoted
// value is true, false or null (in either case), a number when it is a JSON
// number, and otherwise a string. Like Gson reading a whole document, it
// refuses anything after the value. What the value is (an object, an array,
// a string) is left to the caller, as encoding/json then tells.
func Strict(data []byte) ([]byte, error) {
	p := parser{in: data, out: make([]byte, 0, len(data)+len(data)/8)}
	if err := p.value(0); err != nil {
		return nil, err
	}
	if err := p.skipBlank(); err != nil {
		return nil, err
	}
	if p.pos < len(p.in) {
		return nil, p.fail("data after the JSON value")
	}
	return p.out, nil
}

type parser struct {
	in  []byte
	pos int
	out []byte
}

func (p *parser) fail(msg string) error { return &SyntaxError{Offset: p.pos, msg: msg} }

// skipBlank skips whitespace and comments.
func (p *parser) skipBlank() error {
	for p.pos < len(p.in) {
		switch c := p.in[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '#' || bytes.HasPrefix(p.in[p.pos:], []byte("//")):
			end := bytes.IndexAny(p.in[p.pos:], "\n\r")
			if end < 0 {
				p.pos = len(p.in)
			} else {
				p.pos += end
			}
		case bytes.HasPrefix(p.in[p.pos:], []byte("/*")):
			end := bytes.Index(p.in[p.pos+2:], []byte("*/"))
			if end < 0 {
				return p.fail("unterminated comment")
			}
			p.pos += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

// next skips blanks and returns the byte there, without taking it.
func (p *parser) next() (byte, error) {
	if err := p.skipBlank(); err != nil {
		return 0, err
	}
	if p.pos >= len(p.in) {
		return 0, p.fail("unexpected end of the body")
	}
	return p.in[p.pos], nil
}

func (p *parser) value(depth int) error {
	if depth >= maxDepth {
		return p.fail("nested too deeply")
	}
	c, err := p.next()
	if err != nil {
		return err
	}
	switch {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"' || c == '\'':
		return p.quoted(c)
	case isLiteral(c):
		p.literalValue()
		return nil
	default:
		return p.fail(fmt.Sprintf("unexpected %q where a value is expected", c))
	}
}

func (p *parser) object(depth int) error {
	p.pos++ // {
	p.out = append(p.out, '{')
	c, err := p.next()
	if err != nil {
		return err
	}
	if c == '}' {
		p.pos++
		p.out = append(p.out, '}')
		return nil
	}
	for {
		if err := p.name(); err != nil {
			return err
		}
		p.out = append(p.out, ':')
		if err := p.value(depth + 1); err != nil {
			return err
		}
		if end, err := p.separator('}', "a member"); end || err != nil {
			return err
		}
	}
}

// separator reads what follows a member or an element: the end of its
// object or array (true), or a separator (, or ;) before the next one.
func (p *parser) separator(end byte, after string) (bool, error) {
	c, err := p.next()
	if err != nil {
		return false, err
	}
	switch c {
	case end:
		p.pos++
		p.out = append(p.out, end)
		return true, nil
	case ',', ';':
		p.pos++
		p.out = append(p.out, ',')
		return false, nil
	}
	return false, p.fail(fmt.Sprintf("unexpected %q after %s; want , or %c", c, after, end))
}

// name reads a member's name and its separator (: = or =>).
func (p *parser) name() error {
	c, err := p.next()
	if err != nil {
		return err
	}
	switch {
	case c == '"' || c == '\'':
		if err := p.quoted(c); err != nil {
			return err
		}
	case isLiteral(c):
		p.writeString(p.literal())
	default:
		return p.fail(fmt.Sprintf("unexpected %q where a name is expected", c))
	}
	if c, err = p.next(); err != nil {
		return err
	}
	switch c {
	case ':':
		p.pos++
	case '=':
		p.pos++
		if p.pos < len(p.in) && p.in[p.pos] == '>' {
			p.pos++
		}
	default:
		return p.fail(fmt.Sprintf("unexpected %q after a name; want : or =", c))
	}
	return nil
}

func (p *parser) array(depth int) error {
	p.pos++ // [
	p.out = append(p.out, '[')
	c, err := p.next()
	if err != nil {
		return err
	}
	if c == ']' {
		p.pos++
		p.out = append(p.out, ']')
		return nil
	}
	for {
		// An element left out between separators (or before ]) is null.
		if c == ',' || c == ';' || c == ']' {
			p.out = append(p.out, "null"...)
		} else if err := p.value(depth + 1); err != nil {
			return err
		}
		if end, err := p.separator(']', "an element"); end || err != nil {
			return err
		}
		if c, err = p.next(); err != nil {
			return err
		}
	}
}

// quoted reads a string in double or single quotes, writing it double-quoted.
func (p *parser) quoted(quote byte) error {
	start := p.pos
	p.pos++
	p.out = append(p.out, '"')
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		switch {
		case c == quote:
			p.pos++
			p.out = append(p.out, '"')
			return nil
		case c == '\\':
			if err := p.escape(); err != nil {
				return err
			}
		case c == '"': // only inside single quotes
			p.out = append(p.out, '\\', '"')
			p.pos++
		case c < 0x20:
			p.out = fmt.Appendf(p.out, `\u%04x`, c)
			p.pos++
		default:
			p.out = append(p.out, c)
			p.pos++
		}
	}
	return &SyntaxError{Offset: start, msg: "unterminated string"}
}

// escape reads one escape sequence, writing its JSON form.
func (p *parser) escape() error {
	if p.pos+1 >= len(p.in) {
		return p.fail("unterminated escape sequence")
	}
	switch c := p.in[p.pos+1]; c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.out = append(p.out, '\\', c)
		p.pos += 2
	case '\'':
		p.out = append(p.out, '\'')
		p.pos += 2
	case '\n': // a backslash before a line break keeps the break
		p.out = append(p.out, '\\', 'n')
		p.pos += 2
	case 'u':
		if p.pos+6 > len(p.in) || !isHex4(p.in[p.pos+2:p.pos+6]) {
			return p.fail(`\u wants four hexadecimal digits`)
		}
		p.out = append(p.out, p.in[p.pos:p.pos+6]...)
		p.pos += 6
	default:
		return p.fail(fmt.Sprintf("invalid escape sequence \\%c", c))
	}
	return nil
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// isLiteral reports whether c may be part of an unquoted name or value; the
// bytes that end one are Gson's.
func isLiteral(c byte) bool {
	switch c {
	case '/', '\\', ';', '#', '=', '{', '}', '[', ']', ':', ',', ' ', '\t', '\f', '\r', '\n':
		return false
	}
	return true
}

// literal takes the unquoted text at pos.
func (p *parser) literal() []byte {
	start := p.pos
	for p.pos < len(p.in) && isLiteral(p.in[p.pos]) {
		p.pos++
	}
	return p.in[start:p.pos]
}

// jsonNumber is JSON's grammar of a number; Gson reads only those as numbers.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// literalValue writes an unquoted value: a keyword, a number or a string.
func (p *parser) literalValue() {
	lit := p.literal()
	for _, keyword := range []string{"true", "false", "null"} {
		if asciiFold(lit, keyword) {
			p.out = append(p.out, keyword...)
			return
		}
	}
	if jsonNumber.Match(lit) {
		p.out = append(p.out, lit...)
		return
	}
	p.writeString(lit)
}

// asciiFold compares b and the lower-case word, ignoring ASCII case only.
func asciiFold(b []byte, word string) bool {
	if len(b) != len(word) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != word[i] {
			return false
		}
	}
	return true
}

// writeString writes raw text as a JSON string; bytes that are not UTF-8
// pass as they are, for encoding/json to treat as it treats them in JSON.
func (p *parser) writeString(raw []byte) {
	p.out = append(p.out, '"')
	for _, c := range raw {
		switch {
		case c == '"' || c == '\\':
			p.out = append(p.out, '\\', c)
		case c < 0x20:
			p.out = fmt.Appendf(p.out, `\u%04x`, c)
		default:
			p.out = append(p.out, c)
		}
	}
	p.out = append(p.out, '"')
}
