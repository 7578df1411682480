#!/bin/sh
# Installs the system libraries Tactus links (FFTW single precision, libsndfile) and
# pkg-config, with apt-get, only when pkg-config cannot already find them.
set -e
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists fftw3f sndfile; then
    exit 0
fi
echo "Installing libfftw3-dev libsndfile1-dev pkg-config with apt-get…"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libfftw3-dev libsndfile1-dev pkg-config >/dev/null
pkg-config --exists fftw3f sndfile
