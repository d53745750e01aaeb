/* A wall-clock timer as the NAS Parallel Benchmarks have it (common/wtime.c
   with wtime.h's name for gfortran): seconds since the first call. */
#include <sys/time.h>

#define wtime wtime_

void wtime(double *t)
{
  static int sec = -1;
  struct timeval tv;
  gettimeofday(&tv, (void *)0);
  if (sec < 0) sec = tv.tv_sec;
  *t = (tv.tv_sec - sec) + 1.0e-6*tv.tv_usec;
}
