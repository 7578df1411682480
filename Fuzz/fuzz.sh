#!/bin/sh
# Builds the fuzzers, with libFuzzer coverage and AddressSanitizer on the Tactus code
# under test as well as on the targets, then fuzzes one target.
#
#   Fuzz/fuzz.sh ahap|haptic|rumble|rendered|preview|config|preset|samples [seconds=600] [extra libFuzzer flags…]
#
# New interesting inputs go to .build/corpus/<target> (the committed seeds in
# Corpus/<target> are only read); crashes, leaks and timeouts go to findings/.
set -eu
cd "$(dirname "$0")"
target=${1:?usage: fuzz.sh ahap|haptic|rumble|rendered|preview|config|preset|samples [seconds] [libFuzzer flags]}
seconds=${2:-600}
shift $(( $# < 2 ? $# : 2 ))
case $target in
    ahap) product=FuzzAHAP ;;
    haptic) product=FuzzHaptic ;;
    rumble) product=FuzzRumble ;;
    rendered) product=FuzzRendered ;;
    preview) product=FuzzPreview; seeds=ahap ;;
    config) product=FuzzConfig ;;
    preset) product=FuzzPreset ;;
    samples) product=FuzzSamples ;;
    *) echo "fuzz.sh: unknown target $target (ahap, haptic, rumble, rendered, preview, config, preset or samples)" >&2; exit 64 ;;
esac
swift build -c release --product "$product" -Xswiftc -sanitize=fuzzer,address >&2
mkdir -p ".build/corpus/$target" findings
# The Swift runtime's own crash backtracer would race libFuzzer's handler and ASan.
SWIFT_BACKTRACE=enable=no exec ".build/release/$product" ".build/corpus/$target" "Corpus/${seeds:-$target}" -dict=json.dict \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -artifact_prefix=findings/ -print_final_stats=1 "$@"
