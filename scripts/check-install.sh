#!/bin/sh
# Checks what `make install` and `make deb` give a user (run by .ci/run after the tests):
# the installed tool converts a file from another folder and finds the installed presets;
# `tactus tune` runs the installed tactus-tune; the man pages show every command; the
# completions load in bash; neither binary needs a Swift library; the package holds the same files and declares its dependencies; uninstall removes
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
(cd "$work" && env -i PATH=/usr/bin:/bin "$prefix/bin/tactus" tune --help) | grep -q "^USAGE: tactus tune <inputs>"
ok "the installed tactus tune runs the tactus-tune beside it"
for binary in tactus tactus-tune; do
    if ldd "$prefix/bin/$binary" | grep -qi swift; then echo "check-install: $binary links Swift libraries" >&2; exit 1; fi
done
ok "neither binary needs a Swift library (ldd)"
page="$(MANWIDTH=100 man -l "$prefix/share/man/man1/tactus.1" 2>/dev/null || groff -man -Tutf8 "$prefix/share/man/man1/tactus.1")"
for command in convert batch preview validate analyze evaluate presets; do
    echo "$page" | grep -qE "^ +$command( |$)" || { echo "check-install: man page lacks $command" >&2; exit 1; }
done
groff -man -Tutf8 "$prefix/share/man/man1/tactus-tune.1" 2>/dev/null | grep -q -- "--presets-dir" \
    || { echo "check-install: the tactus-tune man page lacks its options" >&2; exit 1; }
ok "the man pages show every command and tune's options"
bash -c ". '$prefix/share/bash-completion/completions/tactus' && complete -p tactus" >/dev/null
ok "bash completions load"
test -s "$prefix/share/zsh/site-functions/_tactus" && test -s "$prefix/share/fish/vendor_completions.d/tactus.fish"
ok "zsh and fish completions installed"
make -s uninstall PREFIX="$prefix" >/dev/null
test -z "$(find "$prefix" -type f)" && ok "uninstall removes every file"

make -s deb BUILT=1 >/dev/null  # the install above built the tools
deb="$(ls .build/tactus_*.deb | tail -n 1)"
dpkg-deb -f "$deb" Depends | grep -q "libsndfile1" && dpkg-deb -f "$deb" Depends | grep -q "libfftw3-single3" \
    && ! dpkg-deb -f "$deb" Depends | grep -q "libebur128"
contents="$(dpkg-deb -c "$deb")"
echo "$contents" | grep -q "./usr/bin/tactus$" && echo "$contents" | grep -q "./usr/bin/tactus-tune$" \
    && echo "$contents" | grep -q "./usr/share/tactus/Presets/default.json$"
ok "$deb holds both binaries and the presets and depends on libsndfile1 and libfftw3-single3 (not libebur128)"
