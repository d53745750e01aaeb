/* C routines that write their arguments and return values, called from
   Fortran by gfortran's conventions: every argument by reference, names
   in lower case with a trailing underscore, CHARACTER lengths appended. */
#include <stddef.h>

void triple_(int *n) { *n = 3 * *n; }

void addto_(double *x, const double *dx, int *calls) { *x += *dx; *calls += 1; }

void setflag_(int *flag, const int *n) { *flag = (*n % 2 == 0); }

void upcase_(char *s, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (s[i] >= 'a' && s[i] <= 'z') s[i] -= 'a' - 'A';
}

float half_(const float *x) { return *x / 3.0f; }

int isum_(const int *n, const int *v)
{
  int s = 0;
  for (int i = 0; i < *n; i++) s += v[i];
  return s;
}

double dnorm1_(const int *n, const double *x)
{
  double s = 0.0;
  for (int i = 0; i < *n; i++) s += x[i] < 0 ? -x[i] : x[i];
  return s;
}
