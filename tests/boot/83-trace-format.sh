#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The format, header_page and header_event files tell the truth to tools:
# copied out of the guest, they parse with libtraceevent on the host with
# no failed event, and decoding the real trace pages of a CPU with them
# (tests/host/trace_decode.c: kbuffer + tep_print_event) gives exactly the
# lines the kernel's own trace file shows for that CPU.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

DECODE=$HYPTRACE_BUILD/host/trace_decode
[ -x "$DECODE" ] || fail "$DECODE missing: run make"
CPU=1

# The guest side: guest/83-trace-format.sh
boot smp4 --add "$(trace_on_file 7 all)" \
	--add "$GUEST_DIR/83-trace-format.sh" --cmd "sh /root/83-trace-format.sh $CPU"
expect_ok

dir=$TEST_LOGS/$TEST_NAME-files
rm -rf "$dir" && mkdir -p "$dir"
# header_page, hyp_enter.format, ... exactly as the guest printed them
grep -a '^@F ' "$BOOT_LOG" | sed 's/\r$//' | while IFS= read -r line; do
	rest=${line#@F }
	f=${rest%% *}
	text=${rest#"$f"}
	text=${text# }
	case $f in
	*/format) name=$(basename "$(dirname "$f")").format ;;
	*) name=$(basename "$f") ;;
	esac
	printf '%s\n' "$text" >>"$dir/$name"
done
for f in header_page header_event hyp_enter.format hyp_exit.format selftest.format; do
	[ -s "$dir/$f" ] || fail "no $f came out of the guest"
done
grep -q 'print fmt: .*__print_symbolic(REC->reason' "$dir/hyp_enter.format" ||
	fail "hyp_enter's print fmt does not use __print_symbolic"
grep -a -o 'carveout_dump: page [0-9]* [0-9]* [0-9a-f]*' "$BOOT_LOG" |
	cut -d' ' -f3- >"$dir/pages.hex"
[ -s "$dir/pages.hex" ] || fail "carveout_dump printed no page"

"$DECODE" "$dir" >"$dir/decoded" 2>&1 || fail "trace_decode: $(grep FAIL "$dir/decoded" | head -n 3)"
info "$(tail -n 1 "$dir/decoded")"
sed -n 's/^event //p' "$dir/decoded" | sort >"$dir/from-pages"
grep -a '^@TR ' "$BOOT_LOG" | sed 's/\r$//; s/^@TR \[[0-9]*\][[:space:]]*//' |
	sort >"$dir/from-trace"
[ -s "$dir/from-trace" ] || fail "the trace file of CPU $CPU is empty"
grep -q 'selftest id=18446744073709551615' "$dir/from-trace" ||
	fail "the u64 selftest id did not come through"
if ! diff -u "$dir/from-trace" "$dir/from-pages" >"$dir/diff"; then
	fail "decoded pages differ from the trace file: $(sed -n 3,8p "$dir/diff" | tr '\n' '|')"
fi
expect_healthy
pass "header_page and $(grep -c '^format ' "$dir/decoded") formats parse; $(wc -l <"$dir/from-pages") events decoded from raw pages match the trace file line for line"
