// SPDX-License-Identifier: GPL-2.0
/*
 * infile.c: input files opened with O_NONBLOCK (a FIFO without a writer
 * does not hang the open), then checked with fstat() before a byte is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "infile.h"

int infile__open(const char *path, unsigned long long max, int *ret_fd)
{
	struct stat st;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		err = -ESPIPE;
	else if ((unsigned long long)st.st_size > max)
		err = -EFBIG;
	else if (fcntl(fd, F_SETFL, 0))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	*ret_fd = fd;
	return 0;
}

const char *infile__strerror(int err)
{
	switch (err) {
	case -EISDIR:
		return "is a directory";
	case -ESPIPE:
		return "not a regular file (a FIFO, a device or a socket)";
	case -EFBIG:
		return "larger than the limit";
	}
	return strerror(-err);
}
