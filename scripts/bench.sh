#!/usr/bin/env bash
# scripts/bench.sh [ROUNDS] [restore] — the performance pairs of issue 17,
# each of ours beside a reference run on the same machine in the same run,
# the two taken in turn ROUNDS times (default 5); prints the median of each
# and the ratio. With "restore", only the restore, floor and unzip rows run
# (a quick loop while working on the restore), with the serve process's
# processor time per restore, which a shared machine blurs less than the clock.
#
#   refresh  the connections, jobs and folders panes' BenchmarkRefresh at 100
#            and 100,000 rows (what the UI goroutine runs: Update, View)
#            beside bubbles/table SetRows+View (ui/common
#            BenchmarkTableReference): growth 100 -> 100,000 and the cost at
#            100,000 over the table's; the panes' BenchmarkRefreshDiff, the
#            O(rows) comparison of an answer with the one before, which runs
#            in the read's task, off the UI goroutine (its ratio is its
#            growth); and the connections list's View at 100 and 100,000
#   backup   curl of GET …/backup of 10,000 files from `dapconsole serve`
#            beside `zip -qr` of the same files on disk
#   restore  curl of PUT …/restore of that archive beside `unzip -q` of it
#   floor    what SQLite alone takes to insert that many rows, beside the
#            same unzip -q: the server's driver (modernc.org/sqlite,
#            server/store BenchmarkInsertFloor, 10,000 rows bound in batches
#            of 64 in one transaction) and the C sqlite3 CLI copying the
#            project's 10,100 rows into a new database of the same schema
#            in one INSERT…SELECT; the restore cannot be faster than these
#   heap     the restore's peak heap at 10,000 and 100,000 files (server
#            BenchmarkRestore, once, after the rounds; its ratio is its growth)
#   import   a 1,000,000-row CSV import job (server/jobs BenchmarkImport1MRows)
#            beside `sqlite3 .import` of the same file into a database file
#   frame    the console started on a pty against that `dapconsole serve`,
#            from the process's start to the first frame showing the root
#            folder's content (TestFirstFrameProbe), beside one curl of the
#            one request that frame needs (the root folder), and beside one
#            curl of the two issue 17 named (the root folder and the running
#            jobs, which the first frame no longer waits for); the two curls
#            take turns at coming first, since the first after the console
#            is the slower
#
# On a filesystem mounted with discard (a deleted file stalls the next writes),
# run it as TMPDIR=/dev/shm bash scripts/bench.sh: the README says why.
# Needs bash, awk, curl, zip, unzip, sqlite3, Linux /proc and /dev/ptmx. Run from the
# repository root. Timing is wall clock: on a shared machine only the
# ratios, taken in turn, mean anything.
set -euo pipefail

rounds=${1:-5}
only=${2:-}
case "$only" in "" | restore) ;; *) echo "usage: $0 [ROUNDS] [restore]" >&2; exit 2 ;; esac
work=$(mktemp -d)
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

echo "building…" >&2
go build -o "$work/dapconsole" .
pkgs=(ui/connections ui/jobs ui/folders ui/common server server/store server/jobs)
[ "$only" = restore ] && pkgs=(server server/store)
for pkg in "${pkgs[@]}"; do
	go test -c -o "$work/${pkg//\//_}.test" "./$pkg"
done
[ -z "$only" ] && go test -c -o "$work/console.test" .

# sample NAME VALUE keeps one measurement; median NAME is their median.
sample() { echo "$2" >> "$work/samples.$1"; }
median() { sort -g "$work/samples.$1" | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
# gobench TEST PATTERN BENCHTIME PREFIX: runs benchmarks, keeps each ns/op
# as PREFIX and the last part of its name (connections=100 -> PREFIX100).
gobench() {
	(cd "$(dirname "$1")" && "$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3") |
		awk -v p="$4" '/^Benchmark/ {name = $1; sub(/-[0-9]+$/, "", name); sub(/.*[\/=]/, "", name); print p name, $3}' |
		while read -r name ns; do sample "$name" "$ns"; done
}
# wall NAME CMD...: runs CMD and keeps its wall time in ns.
wall() {
	local name=$1 start end
	shift
	start=$(date +%s%N)
	"$@" > /dev/null
	end=$(date +%s%N)
	sample "$name" $((end - start))
}

# insert_select_floor times the C sqlite3 CLI copying the project's file
# rows from the server's database into a new one of the same schema, in one
# transaction with the server's pragmas: SQLite's own floor under the restore.
insert_select_floor() {
	local db="$work/floor.db" start end
	rm -f "$db" "$db-wal" "$db-shm"
	sqlite3 "$db" 'PRAGMA journal_mode=WAL' > /dev/null
	sqlite3 "$work/probe/data/dap.db" '.schema users' '.schema files' | sqlite3 "$db"
	sqlite3 "$db" "ATTACH '$work/probe/data/dap.db' AS served; INSERT INTO users SELECT * FROM served.users"
	start=$(date +%s%N)
	sqlite3 "$db" "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=1; ATTACH '$work/probe/data/dap.db' AS served; BEGIN;
		INSERT INTO files(parent_id, path, name, kind, uuid, config_id, owner_id, others_read, others_write, others_execute, description, config)
		SELECT NULL, '/Copy' || path, name, kind, uuid, config_id, owner_id, others_read, others_write, others_execute, description, config
		FROM served.files WHERE path LIKE '/Project/%' ORDER BY id; COMMIT"
	end=$(date +%s%N)
	sample sqlite3floor $((end - start))
}

# The 10,000-file project: the server's data directory, its archive, and
# its files on disk (server's TestBackupMemoryProbe makes all three).
echo "filling the project…" >&2
DAP_PROBE=setup DAP_PROBE_DIR="$work/probe" "$work/server.test" -test.run TestBackupMemoryProbe > /dev/null
"$work/dapconsole" serve --addr 127.0.0.1:0 --data "$work/probe/data" > "$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q '^listening on ' "$work/serve.log" && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$work/serve.log")

# cpu_ms is the processor time the serve process has used, in ms.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) * 1000 / hz}' "/proc/$server_pid/stat"; }

for round in $(seq "$rounds"); do
	echo "round $round of $rounds…" >&2
	if [ "$only" = restore ]; then
		cpu=$(cpu_ms)
		wall restore curl -sSf -o /dev/null -u admin:admin -H 'Content-Type: application/zip' -X PUT \
			--data-binary @"$work/probe/project.zip" "$base/api/filesystem/folders/%2FRestored$round/restore"
		sample restorecpu $(($(cpu_ms) - cpu))
		wall unzip unzip -q "$work/probe/project.zip" -d "$work/unzipped$round"
		gobench "$work/server_store.test" '^BenchmarkInsertFloor/rows=batch$' 3x floor
		insert_select_floor
		continue
	fi
	gobench "$work/ui_connections.test" '^BenchmarkRefresh$' 200x connections
	gobench "$work/ui_connections.test" '^BenchmarkRefreshDiff$' 20x connectionsdiff
	gobench "$work/ui_connections.test" 'ListView' 2000x listview
	gobench "$work/ui_common.test" 'TableReference' 20x table
	gobench "$work/ui_jobs.test" '^BenchmarkRefresh$' 200x jobs
	gobench "$work/ui_jobs.test" '^BenchmarkRefreshDiff$' 20x jobsdiff
	gobench "$work/ui_common.test" 'TableReference' 20x table
	gobench "$work/ui_folders.test" '^BenchmarkRefresh$' 20x folders
	gobench "$work/ui_common.test" 'TableReference' 20x table

	wall backup curl -sSf -o "$work/backup.zip" -u admin:admin "$base/api/filesystem/folders/%2FProject/backup"
	rm -f "$work/zip.zip"
	wall zip sh -c "cd '$work/probe/tree' && zip -qr '$work/zip.zip' Project"

	sample frame "$(DAP_PROBE_BINARY="$work/dapconsole" DAP_PROBE_SERVER="$base" DAP_PROBE_TEXT=Project/ \
		"$work/console.test" -test.run '^TestFirstFrameProbe$' | head -1)"
	curls=(curl1 curl2)
	[ $((round % 2)) = 0 ] && curls=(curl2 curl1)
	for c in "${curls[@]}"; do
		if [ "$c" = curl1 ]; then
			wall curl1 curl -sSf -u admin:admin -o /dev/null "$base/api/filesystem/root-folder"
		else
			wall curl2 curl -sSf -u admin:admin -o /dev/null -o /dev/null \
				"$base/api/filesystem/root-folder" "$base/api/job-execution/list-running"
		fi
	done

	wall restore curl -sSf -o /dev/null -u admin:admin -H 'Content-Type: application/zip' -X PUT \
		--data-binary @"$work/probe/project.zip" "$base/api/filesystem/folders/%2FRestored$round/restore"
	wall unzip unzip -q "$work/probe/project.zip" -d "$work/unzipped$round"
	gobench "$work/server_store.test" '^BenchmarkInsertFloor/rows=batch$' 3x floor
	insert_select_floor

	gobench "$work/server_jobs.test" 'Import1MRows/engine' 1x import
	gobench "$work/server_jobs.test" 'Import1MRows/sqlite3-cli' 1x sqlite3
done
serve_hwm=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status")

m() { median "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
ms() { awk -v ns="$1" 'BEGIN {printf "%.3f ms", ns / 1e6}'; }
machine() {
	echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
	echo "median of $rounds rounds, ours and the reference taken in turn"
	echo
	printf '| %-44s | %-22s | %-22s | %-7s |\n' path ours reference ratio
	printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..24})" "$(printf -- '-%.0s' {1..24})" "$(printf -- '-%.0s' {1..9})"
}
restore_rows() {
	printf '| %-44s | %-22s | %-22s | %-7s |\n' "restore 10k files (PUT) vs unzip -q" "$(ms "$(m restore)")" "$(ms "$(m unzip)")" "$(ratio "$(m restore)" "$(m unzip)")"
	printf '| %-44s | %-22s | %-22s | %-7s |\n' "floor: modernc insert of 10k rows vs unzip -q" "$(ms "$(m floorbatch)")" "$(ms "$(m unzip)")" "$(ratio "$(m floorbatch)" "$(m unzip)")"
	printf '| %-44s | %-22s | %-22s | %-7s |\n' "floor: sqlite3 CLI insert of 10k vs unzip -q" "$(ms "$(m sqlite3floor)")" "$(ms "$(m unzip)")" "$(ratio "$(m sqlite3floor)" "$(m unzip)")"
}
if [ "$only" = restore ]; then
	echo
	machine
	restore_rows
	echo
	echo "serve processor time per restore (median): $(m restorecpu) ms"
	exit 0
fi

# The restore's heap at 10,000 and at 100,000 files, once each: the
# server's BenchmarkRestore reports the peak above what the heap held
# before the restore (filling 100,000 files takes most of a minute).
echo "restoring 10,000 and 100,000 files in process…" >&2
(cd server && "$work/server.test" -test.run '^$' -test.bench '^BenchmarkRestore$' -test.benchtime 1x) |
	awk '/^BenchmarkRestore\// {n = $1; sub(/-[0-9]+$/, "", n); sub(/.*=/, "", n); for (i = 2; i < NF; i++) if ($(i + 1) == "peak-heap-MiB") print n, $i}' > "$work/restore-heap"
heap() { awk -v n="$1" '$1 == n {print $2}' "$work/restore-heap"; }

echo
machine
t100=$(m table100) t100k=$(m table100000)
for pane in connections jobs folders; do
	o100=$(m "${pane}100") o100k=$(m "${pane}100000")
	printf '| %-44s | %-22s | %-22s | %-7s |\n' "$pane refresh+View, growth 100 -> 100k" \
		"$(ms "$o100") -> $(ms "$o100k")" "$(ms "$t100") -> $(ms "$t100k")" \
		"$(ratio "$(ratio "$o100k" "$o100")" "$(ratio "$t100k" "$t100")")"
	printf '| %-44s | %-22s | %-22s | %-7s |\n' "$pane refresh+View at 100k vs table" "$(ms "$o100k")" "$(ms "$t100k")" "$(ratio "$o100k" "$t100k")"
	if [ -s "$work/samples.${pane}diff100000" ]; then
		d100=$(m "${pane}diff100") d100k=$(m "${pane}diff100000")
		printf '| %-44s | %-22s | %-22s | %-7s |\n' "$pane answer diff in the read's task" \
			"$(ms "$d100") -> $(ms "$d100k")" "—" "$(ratio "$d100k" "$d100")"
	fi
done
printf '| %-44s | %-22s | %-22s | %-7s |\n' "connections ListView, 100 -> 100k" "$(ms "$(m listview100)") -> $(ms "$(m listview100000)")" "—" "$(ratio "$(m listview100000)" "$(m listview100)")"
printf '| %-44s | %-22s | %-22s | %-7s |\n' "backup 10k files (GET) vs zip -qr" "$(ms "$(m backup)")" "$(ms "$(m zip)")" "$(ratio "$(m backup)" "$(m zip)")"
restore_rows
printf '| %-44s | %-22s | %-22s | %-7s |\n' "first frame vs curl of its 1 request" "$(ms "$(m frame)")" "$(ms "$(m curl1)")" "$(ratio "$(m frame)" "$(m curl1)")"
printf '| %-44s | %-22s | %-22s | %-7s |\n' "first frame vs curl of issue 17's 2 requests" "$(ms "$(m frame)")" "$(ms "$(m curl2)")" "$(ratio "$(m frame)" "$(m curl2)")"
rows() { awk -v ns="$1" 'BEGIN {printf "%.0fk rows/s", 1e6 / (ns / 1e9) / 1e3}'; }
printf '| %-44s | %-22s | %-22s | %-7s |\n' "import 1M-row CSV vs sqlite3 .import (rows/s)" "$(rows "$(m importengine)")" "$(rows "$(m sqlite3sqlite3-cli)")" "$(ratio "$(m sqlite3sqlite3-cli)" "$(m importengine)")"
printf '| %-44s | %-22s | %-22s | %-7s |\n' "restore peak heap, 10k -> 100k files" "$(heap 10000) -> $(heap 100000) MiB" "—" "$(ratio "$(heap 100000)" "$(heap 10000)")"
echo
echo "serve peak RSS over the run (VmHWM): $serve_hwm KiB"
echo "ratios: growth, the pane's growth over the table's; import, our rows/s over sqlite3's (> 1 is faster); the others, our time over the reference's (< 1 is faster)"
