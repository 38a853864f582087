#!/bin/sh
# `make run`: proper's main job on the bundled data.
set -e
cd "$(dirname "$0")/.."
bin/proper --version
