#!/bin/sh
# `make check-tune` and the tune rows of `make bench`: installs Debian's Chromium and its
# driver (apt-get) and Selenium (pip) when missing, then runs check_tune.py with the arguments given.
set -e
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
python3 -c "import selenium" 2>/dev/null || pip install -q -r scripts/check-tune/requirements.txt
exec python3 scripts/check-tune/check_tune.py "$@"
