/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_input.h: for the libFuzzer targets whose parser reads a file: the
 * input as a file, through a memfd named /proc/self/fd/N.
 */
#ifndef CAPAUDIT_FUZZ_INPUT_H
#define CAPAUDIT_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The memfd's fd (close it) and its path in @path, or -1 */
static inline int fuzz_input__file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
