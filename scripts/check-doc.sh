#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that the documentation says what the code does (make check-doc;
# tests/run-all.sh runs it in make test):
#  - every subcommand hyptrace --help lists has a man page,
#    Documentation/man/hyptrace-SUB.1.adoc, and hyptrace(1) names it;
#  - every long option hyptrace --help prints is described on
#    hyptrace.1.adoc, and every one hyptrace SUB --help prints on SUB's
#    page (a term of a definition list, "*--opt* _ARG_::"; a mention in
#    an example is not enough), and every one qemu-run.sh --help prints
#    on qemu-run.sh.1.adoc, and every module_param() of host-driver/ on
#    hyptrace.ko.4.adoc;
#  - every HVC function ID and return code shared/hyptrace_abi.h defines is
#    on the ABI page (Documentation/design/hypercall-abi.md) with the value
#    the compiler gives it, and the page names no call the header lacks;
#    the ABI version that page and the README state is the header's, and
#    the README's hyptrace version scripts/version.sh's;
#  - every relative link in README.md and Documentation/ leads to a file.
# One line per fault, then "check-doc: N faults" and exit 1; or a summary
# line and exit 0. Needs the native tool (make tools).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

MAN=$HYPTRACE_TOP/Documentation/man
ABI_PAGE=$HYPTRACE_TOP/Documentation/design/hypercall-abi.md
HYPTRACE=${HYPTRACE:-$HYPTRACE_BUILD/tools/native/hyptrace}
faults=0
checked=0

fault() {
	echo "check-doc: $*"
	faults=$((faults + 1))
}

# on_page PAGE WORD: WORD on PAGE, not as part of a longer option name
on_page() {
	grep -qE -- "(^|[^a-z0-9-])$2([^a-z0-9-]|\$)" "$1"
}

check_subcommands() {
	local subs sub page
	[ -x "$HYPTRACE" ] || die "no $HYPTRACE (make tools)"
	subs=$("$HYPTRACE" --help | sed -n 's/^  \([a-z][a-z0-9-]*\)  .*/\1/p')
	[ -n "$subs" ] || fault "hyptrace --help lists no subcommand"
	for sub in $subs; do
		checked=$((checked + 1))
		page=$MAN/hyptrace-$sub.1.adoc
		if [ ! -f "$page" ]; then
			fault "subcommand '$sub' has no man page ($page)"
			continue
		fi
		on_page "$MAN/hyptrace.1.adoc" "hyptrace-$sub" ||
			fault "hyptrace.1.adoc does not name hyptrace-$sub(1)"
		long_opts_on "$page" "$HYPTRACE" "$sub" --help
	done
	long_opts_on "$MAN/hyptrace.1.adoc" "$HYPTRACE" --help
	long_opts_on "$MAN/qemu-run.sh.1.adoc" "$HYPTRACE_TOP/qemu-run.sh" --help
}

# long_opts_on PAGE COMMAND...: every long option in COMMAND's list of
# options is a term on PAGE
long_opts_on() {
	local page=$1 terms opt
	shift
	terms=$(mktemp)
	grep -E '::$' "$page" >"$terms" || true
	# the options the lines of the list begin with, "  -o, --output OUT"
	for opt in $("$@" | sed -nE 's/^ +(-[a-zA-Z0-9], )?(--[a-z][a-z0-9-]*).*/\2/p' |
		     sort -u); do
		checked=$((checked + 1))
		on_page "$terms" "$opt" ||
			fault "'$(basename "$1") ${*:2}' prints $opt, $(basename "$page") does not describe it"
	done
	rm -f "$terms"
}

# Every parameter hyptrace.ko declares, as a term of its page
check_module_params() {
	local terms p
	terms=$(mktemp)
	grep -E '::$' "$MAN/hyptrace.ko.4.adoc" >"$terms" || true
	while read -r p; do
		checked=$((checked + 1))
		on_page "$terms" "$p" ||
			fault "hyptrace.ko has the parameter $p, hyptrace.ko.4.adoc does not describe it"
	done < <(sed -nE 's/^module_param\(([a-z0-9_]+),.*/\1/p' \
		 "$HYPTRACE_TOP"/host-driver/*.c)
	rm -f "$terms"
}

# The header's names and values, as the compiler sees them
abi_values() {
	local dir=$HYPTRACE_BUILD/doc src names
	mkdir -p "$dir"
	src=$dir/abi-values.c
	names=$(sed -nE 's/^#define (HYPTRACE_(CALL|RET)_[A-Z0-9_]+)[[:space:]].*/\1/p' \
		"$HYPTRACE_TOP/shared/hyptrace_abi.h")
	{
		echo '#include <stdio.h>'
		echo '#include "hyptrace_abi.h"'
		echo 'int main(void) {'
		for n in $names; do
			case $n in
			HYPTRACE_RET_*)
				printf 'printf("%s %%ld\\n", (long)(%s));\n' "$n" "$n" ;;
			*)
				printf 'printf("%s 0x%%lx\\n", (unsigned long)(%s));\n' "$n" "$n" ;;
			esac
		done
		echo 'return 0; }'
	} >"$src"
	gcc -Wall -Werror -I"$HYPTRACE_TOP/shared" -o "$dir/abi-values" "$src"
	"$dir/abi-values"
}

# Each name in a table row of the page, with its value in the same row
check_abi() {
	local name value row n
	[ -f "$ABI_PAGE" ] || { fault "no ABI page $ABI_PAGE"; return; }
	while read -r name value; do
		checked=$((checked + 1))
		row=$(grep -E -- "^\|.*\`$name\`" "$ABI_PAGE" || true)
		if [ -z "$row" ]; then
			fault "$name ($value) is not in a table row of $(basename "$ABI_PAGE")"
		elif ! grep -qF -- "\`$value\`" <<<"$row"; then
			fault "$name is $value in shared/hyptrace_abi.h, not on $(basename "$ABI_PAGE"): $row"
		fi
	done < <(abi_values)
	while read -r n; do
		grep -qE "^#define ${n}[[:space:]]" "$HYPTRACE_TOP/shared/hyptrace_abi.h" ||
			fault "$(basename "$ABI_PAGE") names $n, which shared/hyptrace_abi.h does not define"
	done < <(grep -oE 'HYPTRACE_(CALL|RET)_[A-Z0-9_]+' "$ABI_PAGE" | sort -u)
}

# version_said FILE PHRASE WANT WHOSE: "PHRASE X.Y" in FILE says WANT
version_said() {
	local got
	checked=$((checked + 1))
	got=$(grep -oE "$2 [0-9]+\.[0-9]+" "$1" | head -n 1 | awk '{print $NF}')
	[ "$got" = "$3" ] ||
		fault "${1#"$HYPTRACE_TOP"/} says '$2 ${got:-(nothing)}', $4 $3"
}

# Markdown links [text](path) and AsciiDoc link:path[] that are not URLs
check_links() {
	local f target
	while read -r f; do
		while read -r target; do
			target=${target%%#*}
			[ -n "$target" ] || continue
			checked=$((checked + 1))
			[ -e "$(dirname "$f")/$target" ] ||
				fault "${f#"$HYPTRACE_TOP"/} links to $target, which is not there"
		done < <(grep -oE '\]\([^)]+\)|link:[^[]+\[' "$f" |
			 sed -E 's/^\]\((.*)\)$/\1/; s/^link:(.*)\[$/\1/' |
			 grep -vE '^[a-z]+:' || true)
	done < <(find "$HYPTRACE_TOP/README.md" "$HYPTRACE_TOP/Documentation" \
		 -name '*.md' -o -name '*.adoc')
}

check_subcommands
check_module_params
check_abi
abi=$("$HYPTRACE_TOP/scripts/version.sh" --abi)
version_said "$ABI_PAGE" "The ABI version is" "$abi" shared/hyptrace_abi.h
version_said "$HYPTRACE_TOP/README.md" "The hypercall ABI is" "$abi" \
	shared/hyptrace_abi.h
version_said "$HYPTRACE_TOP/README.md" "hyptrace itself is version" \
	"$("$HYPTRACE_TOP/scripts/version.sh")" scripts/version.sh
check_links
if [ "$faults" != 0 ]; then
	echo "check-doc: $faults faults"
	exit 1
fi
echo "check-doc: $checked checks: every subcommand, long option and module parameter on its man page, the ABI page matches shared/hyptrace_abi.h, every link leads somewhere"
