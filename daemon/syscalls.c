// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls.c: system call names, from the table scripts/gen-syscall-names
 * generates into build/syscall_names.h.
 */
#include <stddef.h>
#include <stdio.h>

#include "array_size.h"
#include "syscalls.h"
#include "capaudit.h"
#include "syscall_names.h"

#define N_SYSCALL_NAMES ARRAY_SIZE(syscall_names)

const char *syscalls__name(__u64 nr)
{
	if (nr >= N_SYSCALL_NAMES)
		return NULL;
	return syscall_names[nr];
}

const char *syscalls__describe(__u64 nr, char *buf, size_t size)
{
	const char *name;

	if (nr == CAPAUDIT_NO_SYSCALL)
		return NULL;
	name = syscalls__name(nr);
	if (name)
		return name;
	snprintf(buf, size, "syscall_%llu", (unsigned long long)nr);
	return buf;
}
