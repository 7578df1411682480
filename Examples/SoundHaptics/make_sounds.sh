#!/bin/sh
# Makes the example's sounds with sox (CC0: generated here): a tap, a boom, a whoosh as FLAC.
set -eu
cd "$(dirname "$0")/Sources/SoundHaptics/Sounds"
sox -n -r 22050 -b 16 tap.wav synth 0.04 sine 2500 fade q 0.001 0.04 0.035 pad 0.1 0.2
sox -n -r 22050 -b 16 boom.wav synth 0.6 sine 55 synth 0.6 brownnoise mix fade q 0.002 0.6 0.55 pad 0.1 0.2
sox -n -r 22050 -b 16 whoosh.flac synth 0.8 pinknoise fade h 0.3 0.8 0.4 gain -6 pad 0.1 0.1
