// SPDX-License-Identifier: GPL-2.0
/*
 * The maint_window file, in the remote's directory and its debugfs twin:
 * the window in which the hypervisor records TLBI and DC/IC by VA storms
 * as maint_run events (HYPTRACE_CALL_MAINT_WINDOW,
 * Documentation/guides/cpu-state.md). The window is per CPU in the
 * hypervisor; the file arms and reads it on every online CPU.
 *
 *   echo 500ms > maint_window	open it for 500 ms (ns, us, ms, s; no
 *				unit: nanoseconds; at most 60 s)
 *   echo 0 > maint_window	close it now
 *   cat maint_window		"cpuN off", or "cpuN <ns left>ns", per CPU
 *
 * A CPU that comes online later is not armed. A malformed or too long
 * duration is EINVAL; what the hypervisor refuses comes back as the errno
 * hyptrace_errno() gives, with one rate-limited line either way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/uaccess.h>

#include "hyptrace.h"

#define MAINT_LINE_MAX	32

struct maint_call {
	unsigned long op, ns;
	unsigned long left;	/* the CPU's answer (one CPU at a time) */
	int err;		/* the first CPU's error */
};

/* On each CPU, from the IPI: the hypercall acts on the calling CPU */
static void maint_call_here(void *data)
{
	struct maint_call *c = data;
	struct arm_smccc_res res;
	int err;

	err = hyptrace_call(HYPTRACE_CALL_MAINT_WINDOW, c->op, c->ns, 0, 0,
			    &res, ~0UL);
	if (err)
		cmpxchg(&c->err, 0, err);
	else
		c->left = res.a1;
}

static int maint_show(struct seq_file *m, void *v)
{
	struct maint_call c = { .op = HYPTRACE_MAINT_QUERY };
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		smp_call_function_single(cpu, maint_call_here, &c, 1);
		if (c.err)
			break;
		if (c.left)
			seq_printf(m, "cpu%u %luns\n", cpu, c.left);
		else
			seq_printf(m, "cpu%u off\n", cpu);
	}
	cpus_read_unlock();
	if (c.err)
		pr_err_ratelimited("maint_window: querying the window failed (%d)\n",
				   c.err);
	return c.err;
}

static int maint_open(struct inode *inode, struct file *file)
{
	return single_open(file, maint_show, NULL);
}

/* "N" nanoseconds, or N with a unit: ns, us, ms, s; -EINVAL if not */
static int maint_parse(char *s, unsigned long long *ns)
{
	static const struct {
		const char *unit;
		unsigned long long ns;
	} units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC }, { "", 1 },
	};
	unsigned long long n;
	unsigned int i;
	char *unit = s;

	while (*unit >= '0' && *unit <= '9')
		unit++;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(unit, units[i].unit))
			break;
	}
	if (i == ARRAY_SIZE(units) || unit == s)
		return -EINVAL;
	*unit = '\0';
	if (kstrtoull(s, 10, &n) || check_mul_overflow(n, units[i].ns, ns))
		return -EINVAL;
	return 0;
}

static ssize_t maint_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct maint_call c = { .op = HYPTRACE_MAINT_ARM };
	char buf[MAINT_LINE_MAX], parsed[MAINT_LINE_MAX], *text;
	unsigned long long ns;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	text = strim(buf);
	/* maint_parse() cuts its copy at the unit */
	strscpy(parsed, text, sizeof(parsed));
	if (maint_parse(parsed, &ns) || ns > HYPTRACE_MAINT_MAX_NS) {
		pr_err_ratelimited("maint_window: '%s' is not a duration of at most 60s (N, Nns, Nus, Nms, Ns)\n",
				   text);
		return -EINVAL;
	}
	c.ns = ns;
	cpus_read_lock();
	on_each_cpu(maint_call_here, &c, 1);
	cpus_read_unlock();
	if (c.err) {
		pr_err_ratelimited("maint_window: the hypervisor refused %lluns (%d)\n",
				   ns, c.err);
		return c.err;
	}
	return count;
}

const struct file_operations hyptrace_maint_fops = {
	.open		= maint_open,
	.read		= seq_read,
	.write		= maint_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};
