// SPDX-License-Identifier: GPL-2.0
/*
 * The end of the road: say what happened on the console and in the log,
 * leave the log for the next boot (hyp_log.c), then power the machine off
 * through PSCI so that a scripted run fails at once instead of hanging; or
 * reset it, when the command line asks Linux to reset after a panic
 * (panic=N, N != 0): on a board, RAM then survives, and so does the log.
 */
#include "cpus.h"
#include "hyp_layout.h"
#include "hyp_log.h"
#include "layout.h"
#include "panic.h"
#include "print.h"
#include "psci.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"

static struct hyp_cpu *current_hyp_cpu(void)
{
	struct hyp_cpu *cpu = this_cpu();

	/* TPIDR_EL2 is not set yet while the boot CPU prepares */
	if (hyp_cpus && cpu >= hyp_cpus && cpu < hyp_cpus + HYP_MAX_CPUS)
		return cpu;
	return NULL;
}

static void __noreturn power_off(void)
{
	struct hyp_cpu *cpu = current_hyp_cpu();

	/* The traced call that led here: its hyp_enter, for the next boot */
	if (HYP_TRACE_SITES && cpu)
		hyp_trace_call_flush(cpu);
	hyp_log_panic();
	firmware_call(hyp_layout.panic_reset ? PSCI_0_2_FN_SYSTEM_RESET :
					       PSCI_0_2_FN_SYSTEM_OFF, 0, 0, 0);
	for (;;)
		asm volatile("wfi");
}

static unsigned int current_cpu(void)
{
	struct hyp_cpu *cpu = current_hyp_cpu();

	return cpu ? cpu->idx : 0;
}

void hyp_panic(const char *fmt, ...)
{
	va_list ap;

	hyp_log_panic();
	hyp_printf("hyptrace: PANIC on CPU %u: ", current_cpu());
	va_start(ap, fmt);
	hyp_vprintf(fmt, ap);
	va_end(ap);
	hyp_printf("\n");
	power_off();
}

void hyp_panic_frame(struct trap_frame *frame, const char *what)
{
	unsigned int i;

	hyp_log_panic();
	hyp_printf("hyptrace: PANIC on CPU %u: %s\n", current_cpu(), what);
	hyp_printf("hyptrace:  ESR_EL2 %016lx (EC 0x%02lx)  ELR_EL2 %016lx\n",
		   frame->esr, FIELD_GET(ESR_EC, frame->esr), frame->elr);
	hyp_printf("hyptrace:  FAR_EL2 %016lx  SPSR_EL2 %016lx\n",
		   frame->far, frame->spsr);
	for (i = 0; i < 31; i += 2) {
		if (i < 30)
			hyp_printf("hyptrace:  x%02u %016lx  x%02u %016lx\n",
				   i, frame->regs[i], i + 1, frame->regs[i + 1]);
		else
			hyp_printf("hyptrace:  x%02u %016lx\n", i, frame->regs[i]);
	}
	power_off();
}
