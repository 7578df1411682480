#!/bin/sh
# Builds and runs Examples/SoundHaptics (run by .ci/run): the app resolves swift-argument-parser
# alone and TactusLive links no system library; TactusPlugin must bundle a valid AHAP
# for every sound; touching one sound must reconvert only that sound; a harmony finding must
# show as a build warning; a sound that is not audio must fail the build with a one-line
# reason naming it.
# The app builds in the repository's own build folder (--scratch-path): Tactus's modules and the
# tool the plugin runs (`tactus-tool`, which `swift build --build-tests` builds for the package's
# plugins) are then the ones `make test` compiled, and only the app and the plugin compile here.
set -eu
cd "$(dirname "$0")/../Examples/SoundHaptics"
sounds=Sources/SoundHaptics/Sounds
scratch="--scratch-path ../../.build"
ok() { echo "check-example: $*"; }
trap 'rm -f "$sounds/broken.wav" "$sounds/tom_roll.wav" build.log' EXIT

# The packages share the folder's build description file; the app plans anew rather than take
# the one `make test` left (the Makefile's plan-anew).
rm -f ../../.build/debug/description.json
swift build $scratch --product SoundHaptics >/dev/null
# An app that depends on Tactus resolves swift-argument-parser alone (the tuning server's web
# stack is the Tune/ package's, the DocC plugin comes only with TACTUS_DOCS=1).
# (The main package's identity is its folder's name.)
tactus="$(basename "$(cd ../.. && pwd)" | tr '[:upper:]' '[:lower:]')"
resolved="$(swift package $scratch show-dependencies --format flatlist | grep -vxF "$tactus" | tr '\n' ' ')"
test "$resolved" = "swift-argument-parser " \
    || { echo "check-example: the app resolves more than Tactus and swift-argument-parser: $resolved" >&2; exit 1; }
ok "the app resolves Tactus and swift-argument-parser, nothing else"
# What an app that embeds TactusLive links: no system library (FFTW, libsndfile), no package.
(cd ../.. && python3 scripts/check_live_graph.py > /dev/null) && ok "TactusLive's module graph holds no system library and no package"
out="$(swift run $scratch SoundHaptics 2>/dev/null)"
echo "$out"
test "$(echo "$out" | grep -c '\.ahap: 0 error')" -eq 3 && ok "three bundled AHAPs, each valid"

touch "$sounds/tap.wav"
converted="$(swift build $scratch --product SoundHaptics -v 2>&1 | grep -E 'tactus-tool convert ' || true)"
test "$(echo "$converted" | grep -c .)" -eq 1 && echo "$converted" | grep -q "tap.wav" \
    && ok "touching tap.wav reconverts tap.wav only"

cp ../../Corpus/rolls/tom_roll.wav "$sounds/"
swift build $scratch --product SoundHaptics > build.log 2>&1
grep -q "tom_roll.wav: warning: transient at .* has no audible attack" build.log \
    && ok "a harmony finding is a build warning: $(grep -m1 'tom_roll.wav: warning' build.log | sed 's|.*/||')"
rm -f "$sounds/tom_roll.wav"

printf 'not audio' > "$sounds/broken.wav"
if swift build $scratch --product SoundHaptics > build.log 2>&1; then echo "check-example: a broken sound did not fail the build" >&2; exit 1; fi
grep -q "^tactus: .*broken.wav: is not audio" build.log && ok "a broken sound fails the build: $(grep '^tactus:' build.log)"
rm -f build.log "$sounds/broken.wav"
swift build $scratch --product SoundHaptics >/dev/null && ok "removing it builds again"
