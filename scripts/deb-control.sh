#!/bin/sh
# The DEBIAN/control file of `make deb`, for version $1 on this machine's architecture.
set -eu
cat <<CONTROL
Package: tactus
Version: $1
Architecture: $(dpkg --print-architecture)
Maintainer: The Tactus developers <tactus@localhost>
Depends: libc6, libsndfile1, libfftw3-single3
Section: sound
Priority: optional
Description: turn sound effects into haptics that feel the way they sound
 Tactus analyses audio files (anything libsndfile reads) and writes harmonized
 Core Haptics AHAP files: transients on the attacks, a continuous intensity that
 follows loudness and a sharpness that follows brightness, with the original
 audio paired so sound and touch play in sync. One file or whole asset folders,
 tuned with presets; tactus tune (the tactus-tune binary) tunes a preset by feel
 on a local page.
CONTROL
