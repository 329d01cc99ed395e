// SPDX-License-Identifier: GPL-2.0
/* evloop.c: signalfd, timerfd and epoll helpers for the event loops. */
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "evloop.h"

int evloop__signalfd(const int *signals, int n)
{
	sigset_t mask;
	int i, fd;

	sigemptyset(&mask);
	for (i = 0; i < n; i++)
		sigaddset(&mask, signals[i]);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	fd = signalfd(-1, &mask, SFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int evloop__arm(int fd, unsigned int seconds, bool repeat)
{
	struct itimerspec its = { .it_value.tv_sec = seconds };

	if (repeat)
		its.it_interval.tv_sec = seconds;
	return timerfd_settime(fd, 0, &its, NULL) ? -errno : 0;
}

int evloop__timerfd(unsigned int seconds, bool repeat)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = evloop__arm(fd, seconds, repeat);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int evloop__add(int epfd, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (fd < 0)
		return fd;
	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}
