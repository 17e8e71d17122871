#!/usr/bin/env bash
# Runs the keyring integration test (login -> console start without a password
# prompt -> logout -> prompt again) against a real Secret Service: a private
# D-Bus session with gnome-keyring-daemon, unlocked, keeping its keyring in a
# temporary directory. Skips, saying why, when the tools are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

for tool in dbus-run-session gnome-keyring-daemon; do
	if ! command -v "$tool" >/dev/null; then
		echo "keyring-it: SKIP: $tool not found (Debian packages: dbus-x11 gnome-keyring)"
		exit 0
	fi
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -m 700 "$scratch/run"
export XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run" DAP_KEYRING_IT=1
# The keyring's own unlock password; it never reaches dapconsole.
dbus-run-session -- bash -c '
	set -euo pipefail
	printf %s keyring-it-unlock | gnome-keyring-daemon --unlock --components=secrets >/dev/null
	go test -count=1 -v -run "^TestKeyringIntegration$" . 2>&1 | tee "$XDG_RUNTIME_DIR/out"
	grep -q -- "--- PASS: TestKeyringIntegration" "$XDG_RUNTIME_DIR/out" ||
		{ echo "keyring-it: the integration test did not pass"; exit 1; }
' 2> >(grep -v "Failed to set fd limit" >&2)
