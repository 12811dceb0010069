#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 47-zcu102.sh before the board checks: the files in
# the trace directory, on one "@files" line
#
# usage: 47-zcu102.sh
# the trace files have plain names
# shellcheck disable=SC2012
echo "@files $(ls "$(hyptrace-dir)" | tr "\n" " ")"
