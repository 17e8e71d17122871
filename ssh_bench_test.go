package main

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/sshserve/sshtest"
	"github.com/dapconsole/dapconsole/ui"
	"github.com/dapconsole/dapconsole/ui/common"
)

// BenchmarkFirstFrame is the time from nothing to the folder tree on the
// screen, on the same demo platform: the console run locally, and served
// over SSH (connection, handshake, key check, pty, program) on loopback.
// Both draw into the same virtual terminal at 100x30, which answers the
// console's queries as a terminal does.
func BenchmarkFirstFrame(b *testing.B) {
	p := newPeople(b)
	running, _ := startSSHDemo(b, p, func(f *sshFlags) { f.ssh.PerMinute = 1 << 30 })
	b.Run("local", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			screen := sshtest.NewScreen(b, 100, 30)
			ctx := common.NewContext(api.New(running.server, "admin", "admin"), running.server, "admin", "demo", false)
			program := tea.NewProgram(ui.New(ui.Options{Context: ctx}),
				tea.WithInput(screen.Replies()), tea.WithOutput(screen), tea.WithWindowSize(100, 30),
				tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithColorProfile(colorprofile.ANSI256),
				tea.WithoutSignalHandler())
			ended := make(chan struct{})
			go func() {
				program.Run()
				close(ended)
			}()
			screen.WaitForText("Data/")
			b.StopTimer() // the first frame is in; quitting is not measured
			program.Quit()
			<-ended
			screen.Close()
			b.StartTimer()
		}
	})
	b.Run("ssh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			term := dialConsole(b, running, p.admin, sshtest.Options{Width: 100, Height: 30})
			term.WaitForText("Data/")
			b.StopTimer()
			term.Type("q")
			term.Ended()
			term.Close()
			b.StartTimer()
		}
	})
}
