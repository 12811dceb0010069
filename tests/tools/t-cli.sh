#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-cli.sh: the front end, tools/hyptrace/main.c, which finds the
# subcommand asked for. No argument: the usage on stderr, exit 2. -h,
# --help, help: the usage on stdout, exit 0, every subcommand listed with
# a summary. An unknown subcommand: one line saying so, then the usage,
# exit 2. -V, --version: one line on stdout, exit 0, with the version of
# packaging/debian/changelog and the ABI version of shared/hyptrace_abi.h,
# both read from their files by scripts/version.sh, not from the tool. Each
# subcommand's --help: its own usage on stdout, exit 0.
#
# Run by run_tests.sh (BUILD, HYPTRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

SUBCOMMANDS="record report stats perfetto agent listen keygen"

# runs WANT_RC OUT ERR ARGS...: the tool exits WANT_RC, output in OUT, ERR
runs() {
	_want=$1 _out=$2 _err=$3
	shift 3
	"$HYPTRACE" "$@" >"$_out" 2>"$_err" </dev/null
	[ $? -eq "$_want" ]
}

# lists FILE: the usage, with every subcommand on a line of its own
lists() {
	head -n 1 "$1" | grep -q '^usage: hyptrace SUBCOMMAND' || return 1
	for s in $SUBCOMMANDS; do
		grep -qE "^  $s +[a-z]" "$1" || return 1
	done
}

if runs 2 "$T/out" "$T/err" && [ ! -s "$T/out" ] && lists "$T/err"; then
	ok "no argument: the usage on stderr, exit 2"
else
	bad "no argument: $(head -n 2 "$T/err")"
fi

for a in -h --help help; do
	if runs 0 "$T/out" "$T/err" "$a" && [ ! -s "$T/err" ] &&
	   lists "$T/out"; then
		ok "$a: the usage on stdout, every subcommand, exit 0"
	else
		bad "$a: $(head -n 2 "$T/out") $(head -n 2 "$T/err")"
	fi
done

if runs 2 "$T/out" "$T/err" frobnicate && [ ! -s "$T/out" ] &&
   [ "$(head -n 1 "$T/err")" = "hyptrace: unknown subcommand 'frobnicate'" ] &&
   sed 1d "$T/err" >"$T/usage" && lists "$T/usage"; then
	ok "an unknown subcommand: named, then the usage, exit 2"
else
	bad "an unknown subcommand: $(head -n 2 "$T/err")"
fi

version=$(sh "$TOP/scripts/version.sh") || die "scripts/version.sh failed"
abi=$(sh "$TOP/scripts/version.sh" --abi) || die "scripts/version.sh --abi failed"
want="hyptrace $version (hypervisor ABI $abi)"
for a in -V --version; do
	if runs 0 "$T/out" "$T/err" "$a" && [ ! -s "$T/err" ] &&
	   [ "$(cat "$T/out")" = "$want" ]; then
		ok "$a: '$want', exit 0"
	else
		bad "$a: '$(head -n 2 "$T/out")', not '$want'; $(head -n 1 "$T/err")"
	fi
done

for s in $SUBCOMMANDS; do
	if runs 0 "$T/out" "$T/err" "$s" --help && [ ! -s "$T/err" ] &&
	   head -n 1 "$T/out" | grep -q "^usage: hyptrace $s"; then
		ok "$s --help: its usage on stdout, exit 0"
	else
		bad "$s --help: $(head -n 2 "$T/out") $(head -n 2 "$T/err")"
	fi
done

finish
