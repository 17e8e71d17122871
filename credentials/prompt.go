package credentials

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/charmbracelet/x/term"
)

// Prompter asks the user for what is missing, on a terminal or on any
// reader/writer pair (tests and pipes). Passwords are not echoed on a terminal.
type Prompter struct {
	in    io.Reader
	out   io.Writer
	lines *bufio.Reader
	asked int
}

// ErrNoInput means a question was asked but standard input had no answer
// (closed or not a terminal in a script).
var ErrNoInput = errors.New("no answer on standard input")

// NewPrompter asks on out and reads answers from in.
func NewPrompter(in io.Reader, out io.Writer) *Prompter {
	return &Prompter{in: in, out: out, lines: bufio.NewReader(in)}
}

// Asked is how many questions the prompter has asked, so a caller (or a test)
// can tell whether a start was silent.
func (p *Prompter) Asked() int { return p.asked }

// Line asks for a value shown as it is typed; an empty answer gives fallback.
func (p *Prompter) Line(label, fallback string) (string, error) {
	p.asked++
	if fallback != "" {
		fmt.Fprintf(p.out, "%s [%s]: ", label, fallback)
	} else {
		fmt.Fprintf(p.out, "%s: ", label)
	}
	answer, err := p.readLine()
	if err != nil {
		return "", fmt.Errorf("%s: %w", strings.ToLower(label), err)
	}
	if answer == "" {
		return fallback, nil
	}
	return answer, nil
}

// Password asks for a password, masked when the input is a terminal.
func (p *Prompter) Password(label string) (string, error) {
	p.asked++
	fmt.Fprintf(p.out, "%s: ", label)
	if f, ok := p.in.(*os.File); ok && term.IsTerminal(f.Fd()) {
		secret, err := readMasked(f, p.out)
		fmt.Fprintln(p.out) // the user's Enter was not echoed either
		if err != nil {
			return "", fmt.Errorf("%s: %w", strings.ToLower(label), err)
		}
		return string(secret), nil
	}
	answer, err := p.readLine()
	if err != nil {
		return "", fmt.Errorf("%s: %w", strings.ToLower(label), err)
	}
	return answer, nil
}

func (p *Prompter) readLine() (string, error) {
	line, err := p.lines.ReadString('\n')
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		fmt.Fprintln(p.out)
		if errors.Is(err, io.EOF) {
			return "", ErrNoInput
		}
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// readMasked reads a line without echo. Ctrl+C still interrupts (the
// terminal keeps ISIG), so the echo is switched back on before the process
// ends as it would have: otherwise the shell is left typing blind.
func readMasked(f *os.File, out io.Writer) ([]byte, error) {
	state, err := term.GetState(f.Fd())
	if err != nil {
		return nil, err
	}
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt)
	defer signal.Stop(interrupted)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-interrupted:
			_ = term.Restore(f.Fd(), state)
			fmt.Fprintln(out)
			os.Exit(130) // 128 + SIGINT, as the default handler would end it
		case <-done:
		}
	}()
	return term.ReadPassword(f.Fd())
}

// AskAccount asks for the server URL and the user the profile lacks, the
// server again until it is a URL the console can use.
func (prompt *Prompter) AskAccount(profile *Profile) error {
	for profile.Server == "" {
		raw, err := prompt.Line("Server URL", "")
		if err != nil {
			return err
		}
		if profile.Server, err = NormalizeServer(raw); err != nil {
			fmt.Fprintln(prompt.out, err)
		}
	}
	for profile.User == "" {
		user, err := prompt.Line("User", "")
		if err != nil {
			return err
		}
		profile.User = strings.TrimSpace(user)
	}
	return nil
}
