/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The project's version, as the hypervisor's banner, hyptrace.ko (modinfo)
 * and 'hyptrace --version' say it: the version of the first entry of
 * packaging/debian/changelog, which names the packages. Bump the two
 * together: scripts/version.sh prints it, and fails while they differ.
 */
#ifndef HYPTRACE_SHARED_HYPTRACE_VERSION_H
#define HYPTRACE_SHARED_HYPTRACE_VERSION_H

#define HYPTRACE_VERSION	"0.1"

#endif /* HYPTRACE_SHARED_HYPTRACE_VERSION_H */
