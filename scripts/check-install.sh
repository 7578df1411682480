#!/bin/sh
# Checks what `make install` and `make deb` give a user (run by .ci/run after the tests):
# the installed tool converts a file from another folder and finds the installed presets;
# the man page shows every command; the completions load in bash; the binary needs no Swift
# library; the package holds the same files and declares its dependencies; uninstall removes
# everything. Prints one line per check and exits non-zero on the first failure.
set -eu
cd "$(dirname "$0")/.."
prefix="$(mktemp -d)"
work="$(mktemp -d)"
trap 'rm -rf "$prefix" "$work"' EXIT
ok() { echo "check-install: $*"; }

make -s install PREFIX="$prefix" >/dev/null
(cd "$work" && env -i PATH=/usr/bin:/bin "$prefix/bin/tactus" convert "$OLDPWD/Corpus/clean/punch.wav" -o out -q)
test -s "$work/out/punch.ahap" && ok "installed tactus converts a sound from another folder"
(cd "$work" && env -i PATH="$prefix/bin:/usr/bin:/bin" tactus presets show impacts) \
    | grep -q "chain: $prefix/share/tactus/Presets/impacts.json"
ok "the installed presets are found (share/tactus/Presets), run through PATH"
if ldd "$prefix/bin/tactus" | grep -qi swift; then echo "check-install: the binary links Swift libraries" >&2; exit 1; fi
ok "the binary needs no Swift library (ldd)"
page="$(MANWIDTH=100 man -l "$prefix/share/man/man1/tactus.1" 2>/dev/null || groff -man -Tutf8 "$prefix/share/man/man1/tactus.1")"
for command in convert batch preview validate analyze evaluate presets; do
    echo "$page" | grep -qE "^ +$command( |$)" || { echo "check-install: man page lacks $command" >&2; exit 1; }
done
ok "the man page shows every command"
bash -c ". '$prefix/share/bash-completion/completions/tactus' && complete -p tactus" >/dev/null
ok "bash completions load"
test -s "$prefix/share/zsh/site-functions/_tactus" && test -s "$prefix/share/fish/vendor_completions.d/tactus.fish"
ok "zsh and fish completions installed"
make -s uninstall PREFIX="$prefix" >/dev/null
test -z "$(find "$prefix" -type f)" && ok "uninstall removes every file"

make -s deb >/dev/null
deb="$(ls .build/tactus_*.deb | tail -n 1)"
dpkg-deb -f "$deb" Depends | grep -q "libsndfile1" && dpkg-deb -f "$deb" Depends | grep -q "libfftw3-single3" \
    && dpkg-deb -f "$deb" Depends | grep -q "libebur128-1"
contents="$(dpkg-deb -c "$deb")"
echo "$contents" | grep -q "./usr/bin/tactus$" && echo "$contents" | grep -q "./usr/share/tactus/Presets/default.json$"
ok "$deb holds the tool and presets and depends on libsndfile1, libfftw3-single3 and libebur128-1"
