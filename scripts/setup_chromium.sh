#!/bin/sh
# Installs the headless Chromium that tests/webapp/browser_test.ts drives (via playwright-core).
# Idempotent: does nothing when /usr/bin/chromium already exists. Needs root (or sudo) on Debian/Ubuntu.
set -eu
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
/usr/bin/chromium --version
