SYSCALL_DEFINE1(x, int, a)
{
	return capable(CAP_SYS_ADMIN) ? 0x1CAP_ : 1e+5;
}
