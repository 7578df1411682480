#!/bin/sh
# Installs what `make bench` measures with, only when it is missing, so the benchmark runs on
# a fresh machine: sox (+ MP3 encoder) to make the corpus, aubio's command-line tools and
# librosa as the baselines, GNU time for peak memory, gcc for the machine-limit probe, perf
# for the per-stage profile and valgrind (callgrind) for instruction counts. The libraries
# Tactus links (which the machine-limit probe links too) come from scripts/ensure-deps.sh,
# which `make bench` runs first.
set -e
here=$(dirname "$0")

missing=""
need() { # need COMMAND-OR-PATH PACKAGE
    if ! command -v "$1" >/dev/null 2>&1 && [ ! -x "$1" ]; then missing="$missing $2"; fi
}
need sox sox
need aubioonset aubio-tools
need /usr/bin/time time
need gcc gcc
need perf linux-perf
need valgrind valgrind
# sox reads and writes MP3 only through this plugin.
if ! sox -h 2>/dev/null | grep -q ' mp3 '; then missing="$missing libsox-fmt-mp3"; fi
if ! python3 -m pip --version >/dev/null 2>&1; then missing="$missing python3-pip"; fi

if [ -n "$missing" ]; then
    echo "Installing$missing with apt-get…"
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# librosa (and numpy, which the corpus generator needs) into the user's Python environment,
# at the pinned versions, only when they cannot be imported.
if ! python3 -c 'import numpy, librosa' >/dev/null 2>&1; then
    echo "Installing the pinned librosa baseline with pip…"
    python3 -m pip install --quiet --user -r "$here/requirements.txt" \
        || python3 -m pip install --quiet --user --break-system-packages -r "$here/requirements.txt"
fi
