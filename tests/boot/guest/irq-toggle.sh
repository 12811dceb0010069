#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Not a test: the reproducer of a fault of the test machine's QEMU, which
# Documentation/testing.md describes ("Faults of the test environment").
# Switch the kernel's irq events on N times; each time, after some
# interrupts, count each event of the two entry/exit pairs in the kernel's
# own buffer. A pair with one side 0 and the other not is a tracepoint that
# did not come on although its enable file says 1: "@miss". Ends with
# "@irq_toggle n=N miss=M". Needs no hypervisor:
#
#   ./qemu-run.sh --no-hyp --add tests/boot/guest/irq-toggle.sh \
#       --cmd 'sh /root/irq-toggle.sh 150'
T=/sys/kernel/tracing
n=${1:-150}
miss=0
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	echo 0 > $T/tracing_on
	echo 0 > $T/events/enable
	echo > $T/trace
	echo 1 > $T/events/irq/enable
	echo 1 > $T/tracing_on
	j=0
	while [ $j -lt 30 ]; do
		cat /proc/interrupts > /dev/null
		j=$((j + 1))
	done
	echo 0 > $T/tracing_on
	ie=$(grep -c ' irq_handler_entry:' $T/trace)
	ix=$(grep -c ' irq_handler_exit:' $T/trace)
	se=$(grep -c ' softirq_entry:' $T/trace)
	sx=$(grep -c ' softirq_exit:' $T/trace)
	for pair in "$ie $ix" "$ix $ie" "$se $sx" "$sx $se"; do
		# shellcheck disable=SC2086 # two counts, split on purpose
		set -- $pair
		if [ "$1" = 0 ] && [ "$2" != 0 ]; then
			miss=$((miss + 1))
			echo "@miss $i irq_handler_entry=$ie exit=$ix softirq_entry=$se exit=$sx"
			break
		fi
	done
done
echo 0 > $T/events/enable
echo > $T/trace
echo "@irq_toggle n=$n miss=$miss"
