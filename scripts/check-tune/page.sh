#!/bin/sh
# `make check-tune-page`: the tune page's JavaScript as code. Installs Debian's nodejs (apt-get)
# when node is missing (a check-time tool only), then: each script parses, and the pure functions
# of tune-values.js pass page_tests.js.
set -e
cd "$(dirname "$0")/../.."
if ! command -v node >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null
fi
for script in Tune/Sources/TactusTune/Page/Assets/*.js; do
    node --check "$script"
done
exec node scripts/check-tune/page_tests.js
