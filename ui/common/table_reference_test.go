package common

import (
	"fmt"
	"testing"

	"charm.land/bubbles/v2/table"
)

// BenchmarkTableReference is the yardstick of the panes' BenchmarkRefresh:
// bubbles/table given the rows of a list answer (one row changed) and
// drawn, at the same sizes and in the same run, so that the growth from
// 100 to 100,000 rows and the cost at 100,000 compare on one machine.
func BenchmarkTableReference(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			type conn struct{ name, typ, path, desc string }
			conns := make([]conn, n)
			for i := range conns {
				name := fmt.Sprintf("conn-%05d", i)
				conns[i] = conn{name, "Jdbc MySQL", "/Data/Connections/" + name + ".dst", fmt.Sprintf("connection number %d", i)}
			}
			t := table.New(table.WithColumns([]table.Column{{Title: "NAME", Width: 24}, {Title: "TYPE", Width: 15},
				{Title: "PATH", Width: 38}, {Title: "DESCRIPTION", Width: 30}}), table.WithHeight(37), table.WithWidth(120))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				conns[n/2].desc = fmt.Sprintf("changed %d", i)
				rows := make([]table.Row, len(conns))
				for j, c := range conns {
					rows[j] = table.Row{c.name, c.typ, c.path, c.desc}
				}
				t.SetRows(rows)
				_ = t.View()
			}
		})
	}
}
