/* SPDX-License-Identifier: GPL-2.0 */
/* syscalls.h: x86_64 system call numbers to names. */
#ifndef CAPAUDIT_SYSCALLS_H
#define CAPAUDIT_SYSCALLS_H

#include <stddef.h>
#include <linux/types.h>

/*
 * "sethostname" for 170, or NULL when nr is not an x86_64 system call in
 * <asm/unistd_64.h> (out of range, a hole, x32's bit 30 set, or
 * CAPAUDIT_NO_SYSCALL).  A 32-bit task's numbers (ia32 ABI) are named as if
 * they were x86_64 ones: the event does not record the ABI.
 */
const char *syscalls__name(__u64 nr);

/*
 * What a record's syscall number says: NULL outside a syscall
 * (CAPAUDIT_NO_SYSCALL), the name, or "syscall_<nr>" written into buf.
 */
const char *syscalls__describe(__u64 nr, char *buf, size_t size);

#endif /* CAPAUDIT_SYSCALLS_H */
