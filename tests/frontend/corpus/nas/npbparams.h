c     Problem size, as the NAS benchmarks' setparams would write it.
      integer problem_size, niter_default
      parameter (problem_size = 12, niter_default = 4)
      double precision dt_default
      parameter (dt_default = 0.0008d0)
