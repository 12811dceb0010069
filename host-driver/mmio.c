// SPDX-License-Identifier: GPL-2.0
/*
 * The mmio file, in the remote's directory and its debugfs twin: the
 * device regions the hypervisor traces (HYPTRACE_CALL_MMIO_REGION and
 * _QUERY, Documentation/guides/mmio-trace.md).
 *
 *   echo 0x9010000+0x1000:rw > mmio	trace a region from now on
 *   echo -0x9010000+0x1000 > mmio	stop (exactly the base and size)
 *   cat mmio				"BASE+SIZE:MODE hits=N" per region
 *
 * The hypervisor checks everything; what it refuses comes back as the
 * errno hyptrace_errno() gives (EPERM for RAM or the hypervisor's memory,
 * EBUSY for a page traced already, EINVAL for a malformed region).
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "hyptrace.h"

#define MMIO_LINE_MAX	64

static int mmio_show(struct seq_file *m, void *v)
{
	struct arm_smccc_res res;
	unsigned int slot;
	int ret;

	for (slot = 0; slot < HYPTRACE_MMIO_SLOTS; slot++) {
		unsigned int mode;

		ret = hyptrace_call(HYPTRACE_CALL_MMIO_QUERY, slot, 0, 0, 0,
				    &res, 0);
		if (ret)
			return ret;
		if (!res.a2)
			continue;
		mode = HYPTRACE_MMIO_QUERY_MODE(res.a3);
		seq_printf(m, "0x%lx+0x%lx:%s%s hits=%lu\n", res.a1, res.a2,
			   mode & HYPTRACE_MMIO_R ? "r" : "",
			   mode & HYPTRACE_MMIO_W ? "w" : "",
			   HYPTRACE_MMIO_QUERY_HITS(res.a3));
	}
	return 0;
}

static int mmio_open(struct inode *inode, struct file *file)
{
	return single_open(file, mmio_show, NULL);
}

/* "r", "w" or "rw": HYPTRACE_MMIO_R | _W, or 0 */
static unsigned int mmio_mode(const char *s)
{
	if (!strcmp(s, "r"))
		return HYPTRACE_MMIO_R;
	if (!strcmp(s, "w"))
		return HYPTRACE_MMIO_W;
	if (!strcmp(s, "rw"))
		return HYPTRACE_MMIO_R | HYPTRACE_MMIO_W;
	return 0;
}

static ssize_t mmio_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char buf[MMIO_LINE_MAX], *p, *plus, *colon = NULL;
	unsigned long long base, size;
	unsigned int mode = 0;
	bool remove;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	p = strim(buf);
	remove = *p == '-';
	p += remove;
	plus = strchr(p, '+');
	if (!plus)
		return -EINVAL;
	*plus++ = '\0';
	if (!remove) {
		colon = strchr(plus, ':');
		if (!colon)
			return -EINVAL;
		*colon++ = '\0';
		mode = mmio_mode(colon);
		if (!mode)
			return -EINVAL;
	}
	if (kstrtoull(p, 0, &base) || kstrtoull(plus, 0, &size))
		return -EINVAL;
	ret = hyptrace_call(HYPTRACE_CALL_MMIO_REGION,
			    remove ? HYPTRACE_MMIO_REMOVE : HYPTRACE_MMIO_ADD,
			    base, size, mode, NULL, 0);
	return ret ? ret : count;
}

const struct file_operations hyptrace_mmio_fops = {
	.open		= mmio_open,
	.read		= seq_read,
	.write		= mmio_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};
