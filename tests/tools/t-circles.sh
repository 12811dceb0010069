#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-circles.sh: scripts/check-circles.py, the check that no file of the
# tool calls back into a file that calls it, on small objects made here:
# a chain a -> b -> c passes; a -> b -> c -> a fails with the circle and
# the symbol of each step named; --info prints it but exits 0; a weak
# reference is a use, not a definition; the objects in an archive count
# as files; and the tool itself (its native build's objects) has none.
# Then scripts/check-circles.sh over a build directory made here: a
# circle in host-driver/'s objects fails it, whether in the module's
# build or in 59-hostile-page's copy without trace_remote, unless that
# copy's sources are not the tree's (left from an older run).
#
# Run by run_tests.sh (BUILD, HYPTRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

CIRCLES="python3 $TOP/scripts/check-circles.py"

# obj NAME SOURCE: $T/NAME.o from the C text SOURCE
obj() {
	printf '%s\n' "$2" >"$T/$1.c"
	cc -c -o "$T/$1.o" "$T/$1.c" 2>"$T/cc.log" ||
		die "cc $1.c: $(head -n 1 "$T/cc.log")"
}

# circles WANT_RC WHAT OPTIONS_AND_OBJECTS...: check-circles exits WANT_RC
circles() {
	want=$1 what=$2
	shift 2
	$CIRCLES --strip "$T/" "$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$what: exit $rc"
	else
		bad "$what: exit $rc, not $want: $(tail -n 3 "$T/out")"
	fi
}

obj a 'int b(void); int a(void) { return b(); }'
obj b 'int c(void); int b(void) { return c(); }'
obj c 'int c(void) { return 1; }'
obj c_back 'int a(void); int c(void) { return a(); }'
obj c_weak 'int a(void) __attribute__((weak)); int c(void) { return a ? a() : 0; }'

circles 0 "a chain" "$T/a.o" "$T/b.o" "$T/c.o"
grep -q '3 files, 0 circle' "$T/out" && ok "a chain: 3 files, 0 circles said" ||
	bad "a chain: $(tail -n 1 "$T/out")"

circles 1 "a circle" "$T/a.o" "$T/b.o" "$T/c_back.o"
if grep -q '^circle of 3 files: a.o b.o c_back.o$' "$T/out" &&
   grep -q '^  a.o -> b.o: b$' "$T/out" &&
   grep -q '^  b.o -> c_back.o: c$' "$T/out" &&
   grep -q '^  c_back.o -> a.o: a$' "$T/out"; then
	ok "a circle: its files and each step's symbol named"
else
	bad "a circle: $(cat "$T/out")"
fi

circles 0 "--info" --info "$T/a.o" "$T/b.o" "$T/c_back.o"
grep -q '1 circle(s) (information only)' "$T/out" &&
	ok "--info: the circle said" || bad "--info: $(tail -n 1 "$T/out")"

circles 1 "a weak reference" "$T/a.o" "$T/b.o" "$T/c_weak.o"

ar rcs "$T/abc.a" "$T/b.o" "$T/c_back.o" || die "ar failed"
circles 1 "an archive's members" "$T/a.o" "$T/abc.a"
grep -q '^circle of 3 files: a.o b.o c_back.o$' "$T/out" &&
	ok "an archive: its members named" || bad "an archive: $(cat "$T/out")"

circles 2 "no objects" "$T/nothing-here"

# The tool's own objects, as its Makefile lists them (where make -C
# tests/tools builds the tool: nothing to build again)
make -s --no-print-directory -C "$TOP/tools/hyptrace" \
	BUILD="$BUILD/hyptrace" check-circles >"$T/tool" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'tools/hyptrace: .* 0 circle' "$T/tool"; then
	ok "tools/hyptrace: $(tail -n 1 "$T/tool")"
else
	bad "tools/hyptrace: exit $rc: $(head -n 5 "$T/tool")"
fi

# check_sh WANT_RC WHAT: scripts/check-circles.sh over $T/build exits WANT_RC
check_sh() {
	sh "$TOP/scripts/check-circles.sh" "$T/build" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$1" ]; then
		ok "check-circles.sh, $2: exit $rc"
	else
		bad "check-circles.sh, $2: exit $rc, not $1: $(tail -n 4 "$T/out")"
	fi
}

# Its last step, the tool's objects: where make -C tests/tools built them
mkdir -p "$T/build/tools" && ln -s "$BUILD/hyptrace" "$T/build/tools/native" ||
	die "cannot make $T/build"
mod=$T/build/modules/host-driver
mkdir -p "$mod" && cp "$T/a.o" "$T/b.o" "$T/c_back.o" "$mod/" ||
	die "cannot make $mod"
check_sh 1 "a circle in host-driver/"
grep -q '^circle of 3 files: a.o b.o c_back.o$' "$T/out" &&
	ok "host-driver/: the circle named" || bad "host-driver/: $(cat "$T/out")"
rm -r "$T/build/modules"

fb=$T/build/fallback-module/host-driver
mkdir -p "$fb" && cp "$T/a.o" "$T/b.o" "$T/c_back.o" "$TOP"/host-driver/*.[ch] \
	"$TOP/host-driver/Kbuild" "$fb/" || die "cannot make $fb"
check_sh 1 "a circle in host-driver/ without trace_remote"
printf '/* changed since */\n' >>"$fb/main.c"
check_sh 0 "the same objects from older sources"
grep -q 'built from older sources.*not checked' "$T/out" &&
	ok "older sources: said so" || bad "older sources: $(cat "$T/out")"

finish
