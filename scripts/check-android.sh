#!/bin/sh
# Compiles the Android helper (Integrations/Android/src/main) against compile-time stand-ins of
# the Android SDK classes it calls (Integrations/Android/stubs) and runs its JVM tests
# (Integrations/Android/src/test) on the .android.json and .android.ogg files the tactus tool
# writes for Corpus/.
# Usage, from anywhere: scripts/check-android.sh [path/to/tactus]
# (default .build/release/tactus, built with swift build when missing). Installs a JDK with
# apt-get when javac is missing. Builds into a temporary folder, never into the repository.
set -eu
cd "$(dirname "$0")/.."
android=Integrations/Android

if [ $# -eq 0 ] && [ ! -x .build/release/tactus ]; then
    swift build -c release --product tactus
fi
tool="${1:-.build/release/tactus}"
[ -x "$tool" ] || { echo "check-android: no tactus tool at $tool" >&2; exit 1; }

if ! command -v javac >/dev/null 2>&1; then
    echo "check-android: installing default-jdk-headless with apt-get…"
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jdk-headless >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Java 8 language and library level, as Android apps use it; -Xlint:-options only silences
# newer JDKs' notice that release 8 is old.
javac -Xlint:all -Xlint:-options -Werror --release 8 -encoding UTF-8 -d "$work/classes" \
    $(find "$android/stubs" "$android/src" -name '*.java')

"$tool" convert $(find Corpus -name '*.wav' | sort) -o "$work/fixtures" --format android,android-ogg --quiet
java -cp "$work/classes" dev.tactus.haptics.TactusHapticsTest "$work/fixtures" "$android/FORMAT.md"
