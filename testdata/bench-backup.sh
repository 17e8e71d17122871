#!/usr/bin/env bash
# [PAD=BYTES] bench-backup.sh [FILES] — backup and restore of a folder of FILES
# connection files (default 10000) through a real `dapconsole serve`,
# beside Info-ZIP `zip -qr` and `unzip -q` of the same files on disk.
#
# Prints, for each, wall seconds, MB/s (of the files' bytes) and peak RSS:
# for zip/unzip and curl from `/usr/bin/time -v`; for the server from VmHWM
# in /proc/<pid>/status, reset before each step (clear_refs 5), so it is the
# server's own peak during that step. Needs bash, awk, curl, zip, unzip,
# /usr/bin/time and Linux /proc. Run from the repository root.
set -euo pipefail

files=${1:-10000}
pad=${PAD:-0} # extra bytes in each file's description
per_folder=100
work=$(mktemp -d)
trap 'kill "$server_pid" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/dapconsole" .

# The tree: Project/Team NN/Replica NNN.dst, a connection's JSON as a read returns it.
awk -v files="$files" -v per="$per_folder" -v pad="$pad" -v root="$work/tree/Project" 'BEGIN {
	padding = sprintf("%*s", pad, "")
	for (i = 0; i < files; i++) {
		d = int(i / per); n = i % per
		dir = sprintf("%s/Team %03d", root, d)
		if (n == 0) system("mkdir -p \"" dir "\"")
		path = sprintf("/Project/Team %03d/Replica %03d.dst", d, n)
		f = sprintf("%s/Replica %03d.dst", dir, n)
		printf "{\"version\":\"2.1\",\"className\":\"datameer.dap.common.entity.DataBaseConnection\",\"file\":{\"path\":\"%s\",\"description\":\"Warehouse replica %d of team %d%s\",\"name\":\"Replica %03d\"},\"typeId\":\"das.JdbcDataStoreType\",\"properties\":{\"dataStoreTemplate\":[\"false\"],\"dataStoreUsage\":[\"IMPORT_EXPORT\"],\"key.connectionUrl\":[\"jdbc:postgresql://db%03d.example.com:5432/warehouse_%03d\"],\"password\":[\"s3cret-%d\"],\"user_name\":[\"reader_%03d_%03d\"]},\"dbType\":{\"name\":\"PostgreSQL\"}}", path, n, d, padding, n, d, n, i, d, n > f
		close(f)
	}
}'
bytes=$(find "$work/tree" -type f -printf '%s\n' | awk '{s += $1} END {print s}')

# timed LABEL CMD...: runs CMD under /usr/bin/time -v; sets secs and rss_kb.
timed() {
	local label=$1; shift
	/usr/bin/time -v -o "$work/time.$label" "$@"
	secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$work/time.$label")
	rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.$label")
}
server_hwm() { awk '/VmHWM/ {print $2}' "/proc/$server_pid/status"; }
reset_hwm() { echo 5 > "/proc/$server_pid/clear_refs"; }
mbps() { awk -v b="$bytes" -v s="$1" 'BEGIN {printf "%.1f", (s > 0 ? b / s / 1e6 : 0)}'; }
row() { printf '%-28s %8.2f s %8s MB/s %10d KiB\n' "$1" "$2" "$(mbps "$2")" "$3"; }

# start_server: a fresh `serve` process on the data directory (so each step's
# peak is its own, not what an earlier step left in the heap); sets
# server_pid, base and idle_kb (its RSS at rest).
server_pid=
start_server() {
	if [ -n "$server_pid" ]; then kill "$server_pid"; wait "$server_pid" || true; fi
	: > "$work/serve.log"
	DAP_ADMIN_PASSWORD=bench "$work/dapconsole" serve --addr 127.0.0.1:0 --data "$work/data" > "$work/serve.log" 2>&1 &
	server_pid=$!
	for _ in $(seq 100); do grep -q '^listening on ' "$work/serve.log" && break; sleep 0.1; done
	base=$(sed -n 's/^listening on //p' "$work/serve.log")
	idle_kb=$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status")
}

start_server
echo "files: $files, bytes: $bytes, server RSS at rest: ${idle_kb} KiB"
cd "$work/tree"
timed zip zip -qr "$work/project.zip" Project
cd - > /dev/null
zip_secs=$secs zip_rss=$rss_kb
row "zip -qr" "$zip_secs" "$zip_rss"

reset_hwm
timed restore curl -sS -f -o /dev/null -u admin:bench -H 'Content-Type: application/zip' \
	-X PUT --data-binary @"$work/project.zip" "$base/api/filesystem/folders/%2FRestored/restore"
restore_secs=$secs restore_curl=$rss_kb restore_rss=$(server_hwm) restore_idle=$idle_kb
row "restore (server)" "$restore_secs" "$restore_rss"
row "restore (curl)" "$restore_secs" "$restore_curl"

start_server
reset_hwm
timed backup curl -sS -f -o "$work/backup.zip" -u admin:bench "$base/api/filesystem/folders/%2FRestored%2FProject/backup"
backup_secs=$secs backup_curl=$rss_kb backup_rss=$(server_hwm) backup_idle=$idle_kb
row "backup (server)" "$backup_secs" "$backup_rss"
row "backup (curl)" "$backup_secs" "$backup_curl"
unzip -tq "$work/backup.zip" > /dev/null

timed unzip unzip -q "$work/project.zip" -d "$work/unzipped"
unzip_secs=$secs unzip_rss=$rss_kb
row "unzip -q" "$unzip_secs" "$unzip_rss"

awk -v bs="$backup_secs" -v zs="$zip_secs" -v br="$backup_rss" -v zr="$zip_rss" \
	-v rs="$restore_secs" -v us="$unzip_secs" -v rr="$restore_rss" -v ur="$unzip_rss" \
	-v bi="$backup_idle" -v ri="$restore_idle" 'BEGIN {
	printf "backup/zip:    time x%.1f, peak RSS x%.1f (server peak above rest: %d KiB)\n", bs / zs, br / zr, br - bi
	printf "restore/unzip: time x%.1f, peak RSS x%.1f (server peak above rest: %d KiB)\n", rs / us, rr / ur, rr - ri
}'
