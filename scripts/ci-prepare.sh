#!/bin/sh
# Run by .ci/run in the background while `make test` compiles and tests (which need the CPU;
# this needs the network and the disk): installs what the later checks install themselves
# when it is missing — a JDK (check-android), Debian's Chromium and its driver and Selenium
# (check-tune), debootstrap (check-deb) — with one apt-get update, and bootstraps the fresh
# Debian that check-deb installs the package into, at $1 (scripts/check-deb-chroot.sh uses
# it when it is handed over, and makes its own otherwise). Each check still installs what is
# missing by itself, so it also runs alone on a fresh machine.
set -eu
root="${1:-}"
missing=""
command -v javac >/dev/null 2>&1 || missing="$missing default-jdk-headless"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
if [ -n "$missing" ]; then
    echo "ci-prepare: installing$missing with apt-get…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
python3 -c "import selenium" 2>/dev/null || pip install -q -r scripts/check-tune/requirements.txt
if [ -n "$root" ]; then
    # Into a side folder first: $root exists only once the bootstrap is complete.
    rm -rf "$root.partial"
    debootstrap --variant=minbase bookworm "$root.partial" http://deb.debian.org/debian >/dev/null
    mv "$root.partial" "$root"
    echo "ci-prepare: Debian bookworm bootstrapped at $root"
fi
echo "ci-prepare: done"
