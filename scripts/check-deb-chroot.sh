#!/bin/sh
# Installs the package `make deb` built into a fresh Debian (bookworm, minbase) made with
# debootstrap — a machine without Swift — with apt (which brings its dependencies), converts
# a sound with it and runs `tactus tune --help` (the installed tactus-tune). Needs root and the
# network to Debian's mirror. Run by .ci/run, which bootstraps that Debian while the tests run
# (scripts/ci-prepare.sh) and hands it over in DEB_CHECK_ROOT; it is removed afterwards either way.
set -eu
cd "$(dirname "$0")/.."
deb="$(ls .build/tactus_*.deb | tail -n 1)"
root="${DEB_CHECK_ROOT:-}"
if [ -n "$root" ] && [ -d "$root" ]; then
    trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$root"' EXIT
else
    command -v debootstrap >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null)
    root="$(mktemp -d)"
    trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$root"' EXIT
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" Corpus/clean/punch.wav "$root/tmp/"
chroot "$root" /bin/sh -c "
    set -e
    ! command -v swift
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/$(basename "$deb") >/dev/null
    cd /tmp && tactus convert punch.wav -o out -q && test -s out/punch.ahap
    tactus presets show impacts | grep -q 'chain: /usr/share/tactus/Presets/impacts.json'
    tactus tune --help | grep -q '^USAGE: tactus tune <inputs>'
"
echo "check-deb-chroot: $(basename "$deb") installs with apt on Debian bookworm without Swift, converts a sound and runs tactus tune"
