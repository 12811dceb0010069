#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prints the project's version: that of the first entry of
# packaging/debian/changelog, the one place it is set. The packages,
# 'make install-dkms' (/usr/src/hyptrace-VERSION), 'hyptrace --version' and
# the hypervisor's banner ("hyptrace: version V, EL2, ...") all take it
# from here.
#   scripts/version.sh
set -e
changelog=$(dirname "$0")/../packaging/debian/changelog
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$changelog")
if [ -z "$version" ]; then
	echo "scripts/version.sh: no version in $changelog's first line" >&2
	exit 1
fi
echo "$version"
