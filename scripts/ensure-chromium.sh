#!/usr/bin/env bash
# Make headless Chromium available for the HTML report tests (Debian's `chromium` package).
# Quiet and quick when it is already installed; needs root (or sudo) to install otherwise.
set -euo pipefail

if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: no apt-get here; install Chromium by hand (or set TOOLPLAY_SKIP_BROWSER=1)" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "ensure-chromium: need root to apt-get install chromium" >&2
        exit 1
    fi
fi
echo "ensure-chromium: installing Debian's chromium package (for the report tests)..." >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version >&2
