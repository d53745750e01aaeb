#define HALF 0.5D0
