// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls.c: system call names, from the table scripts/gen-syscall-names
 * generates into build/syscall_names.h.
 */
#include <stddef.h>

#include "syscalls.h"
#include "syscall_names.h"

#define N_SYSCALL_NAMES (sizeof(syscall_names) / sizeof(syscall_names[0]))

const char *syscalls__name(__u64 nr)
{
	if (nr >= N_SYSCALL_NAMES)
		return NULL;
	return syscall_names[nr];
}
