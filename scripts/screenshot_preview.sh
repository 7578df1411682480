#!/usr/bin/env bash
# Screenshots a Tactus preview page in headless Chromium, light and dark, so a person (or
# CI) can look at what a designer sees. Plays nothing: audio is muted and needs a gesture.
#
#   scripts/screenshot_preview.sh                 # previews Corpus/multi/door_open_close.wav
#   scripts/screenshot_preview.sh out/boom.html   # an existing page (or a gallery index.html)
#   scripts/screenshot_preview.sh PAGE OUT_DIR    # screenshots into OUT_DIR (default: beside PAGE)
#   TACTUS=.build/release/tactus scripts/screenshot_preview.sh   # use this binary instead of building one
#
# Writes <page>-light.png and <page>-dark.png and fails if Chromium cannot render the page
# or the rendered DOM lacks the plot. Needs Chromium (Debian: apt-get install -y chromium).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
chromium="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -z "$chromium" ]]; then
    echo "screenshot_preview: Chromium not found (apt-get install -y chromium)" >&2
    exit 1
fi

page="${1:-}"
if [[ -z "$page" ]]; then
    out="$(mktemp -d "${TMPDIR:-/tmp}/tactus-preview.XXXXXX")"
    tactus="${TACTUS:-}"
    if [[ -z "$tactus" ]]; then
        (cd "$repo" && swift build --scratch-path .build-screenshot --product tactus >/dev/null)
        tactus="$repo/.build-screenshot/debug/tactus"
    fi
    "$tactus" preview "$repo/Corpus/multi/door_open_close.wav" -o "$out" --quiet
    page="$out/door_open_close.html"
fi
[[ -f "$page" ]] || { echo "screenshot_preview: $page: no such page" >&2; exit 1; }
page="$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
shots="${2:-$(dirname "$page")}"
mkdir -p "$shots"
name="$(basename "$page" .html)"

# Root in a container needs --no-sandbox; each run gets its own throwaway profile.
profile="$(mktemp -d "${TMPDIR:-/tmp}/tactus-chromium.XXXXXX")"
trap 'rm -rf "$profile"' EXIT
browse() {
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --mute-audio \
        --autoplay-policy=user-gesture-required --user-data-dir="$profile" --window-size=1280,1100 \
        --virtual-time-budget=2000 "$@" "file://$page" 2>/dev/null
}

# blink's preferredColorScheme: 0 = dark, 1 = light (what prefers-color-scheme reports).
for scheme in light dark; do
    code=1; [[ "$scheme" == dark ]] && code=0
    browse --blink-settings=preferredColorScheme=$code --screenshot="$shots/$name-$scheme.png" >/dev/null
    [[ -s "$shots/$name-$scheme.png" ]] || { echo "screenshot_preview: no $scheme screenshot" >&2; exit 1; }
    echo "$shots/$name-$scheme.png"
done

# The page must have rendered its plot (or, for a gallery, its table) from local files only.
dom="$(browse --dump-dom)"
if ! grep -q -e 'class="tp-plot"' -e '<tbody' <<<"$dom"; then
    echo "screenshot_preview: the rendered page has no plot or gallery table" >&2
    exit 1
fi
