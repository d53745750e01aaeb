!-------------------------------------------------------------------------!
!                                                                         !
!        A pseudo-application in the style of the NAS Parallel            !
!        Benchmarks (BT/SP): INCLUDE'd COMMON blocks, lower case,         !
!        IMPLICIT NONE, DO ... END DO, inline comments, FORMATs.          !
!                                                                         !
!-------------------------------------------------------------------------!

c---------------------------------------------------------------------
c---------------------------------------------------------------------
       program appbt
c---------------------------------------------------------------------
c---------------------------------------------------------------------

       implicit none
       include  'header.h'

       integer step, niter, m
       double precision xce(5), xcr(5), tmax
       logical verified
       external timer_read
       double precision timer_read

       niter = niter_default
       dt    = dt_default
       grid_points(1) = problem_size
       grid_points(2) = problem_size
       grid_points(3) = problem_size

       write(*, 1000)
 1000  format(//,' NAS Parallel Benchmarks style - BT-like pseudo app')
       write(*, 1001) grid_points(1), grid_points(2), grid_points(3)
 1001  format(' Size: ', i4, 'x', i4, 'x', i4)

       call set_constants
       call initialize
       call exact_rhs

       do  step = 1, niter
          if (mod(step, 20) .eq. 0 .or. step .eq. 1) then
             write(*, 200) step
 200         format(' Time step ', i4)
          endif
          call compute_rhs
          call add
       end do

       call error_norm(xce)
       call rhs_norm(xcr)
       verified = .true.
       do m = 1, 5
          if (xce(m) .ne. xce(m)) verified = .false.   ! NaN check
       end do
       tmax = timer_read(1)
       write(*, 1002) verified, tmax
 1002  format(' Verified: ', l2, '  Time: ', f10.3)
       end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine set_constants
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, m

      do m = 1, 5
         do i = 1, 13
            ce(m,i) = 0.1d0 * dble(m) + 0.01d0 * dble(i)
         end do
      end do

      c1 = 1.4d0
      c2 = 0.4d0
      c3 = 0.1d0
      c4 = 1.0d0
      c5 = 1.4d0

      nx = grid_points(1)
      ny = grid_points(2)
      nz = grid_points(3)

      tx1 = 1.0d0 / (dble(nx-1) * dble(nx-1))
      tx2 = 1.0d0 / (2.0d0 * dble(nx-1))
      tx3 = 1.0d0 / dble(nx-1)
      ty1 = 1.0d0 / (dble(ny-1) * dble(ny-1))
      ty2 = 1.0d0 / (2.0d0 * dble(ny-1))
      ty3 = 1.0d0 / dble(ny-1)
      tz1 = 1.0d0 / (dble(nz-1) * dble(nz-1))
      tz2 = 1.0d0 / (2.0d0 * dble(nz-1))
      tz3 = 1.0d0 / dble(nz-1)
      dx1 = 0.75d0
      dx2 = dx1
      dx3 = dx1
      dx4 = dx1
      dx5 = dx1
      dssp = 0.25d0 * max(dx1, dx2, dx3, dx4, dx5)
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine initialize
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, j, k, m
      double precision xi, eta, zeta

      do k = 0, grid_points(3)-1
         zeta = dble(k) * tz3
         do j = 0, grid_points(2)-1
            eta = dble(j) * ty3
            do i = 0, grid_points(1)-1
               xi = dble(i) * tx3
               do m = 1, 5
                  u(m,i,j,k) = 1.0d0 + ce(m,1) * xi + ce(m,2) * eta
     >                       + ce(m,3) * zeta
               end do
            end do
         end do
      end do
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine exact_rhs
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, j, k, m

      do k = 0, grid_points(3)-1
         do j = 0, grid_points(2)-1
            do i = 0, grid_points(1)-1
               do m = 1, 5
                  forcing(m,i,j,k) = 0.0d0
               end do
            end do
         end do
      end do
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine compute_rhs
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, j, k, m
      double precision rho_inv, uijk, up1, um1

c---------------------------------------------------------------------
c     compute the reciprocal of density, and the kinetic energy
c---------------------------------------------------------------------
      do k = 0, grid_points(3)-1
         do j = 0, grid_points(2)-1
            do i = 0, grid_points(1)-1
               rho_inv = 1.0d0/u(1,i,j,k)
               rho_i(i,j,k) = rho_inv
               us(i,j,k) = u(2,i,j,k) * rho_inv
               square(i,j,k) = 0.5d0* (
     >                 u(2,i,j,k)*u(2,i,j,k) +
     >                 u(3,i,j,k)*u(3,i,j,k) +
     >                 u(4,i,j,k)*u(4,i,j,k) ) * rho_inv
            end do
         end do
      end do

c---------------------------------------------------------------------
c     copy the exact forcing term to the right hand side
c---------------------------------------------------------------------
      do k = 0, grid_points(3)-1
         do j = 0, grid_points(2)-1
            do i = 0, grid_points(1)-1
               do m = 1, 5
                  rhs(m,i,j,k) = forcing(m,i,j,k)
               end do
            end do
         end do
      end do

c---------------------------------------------------------------------
c     xi-direction fluxes
c---------------------------------------------------------------------
      do k = 1, grid_points(3)-2
         do j = 1, grid_points(2)-2
            do i = 1, grid_points(1)-2
               uijk = us(i,j,k)
               up1  = us(i+1,j,k)
               um1  = us(i-1,j,k)

               rhs(1,i,j,k) = rhs(1,i,j,k) + dx1*tx1 *
     >                   (u(1,i+1,j,k) - 2.0d0*u(1,i,j,k) +
     >                    u(1,i-1,j,k)) -
     >                   tx2 * (u(2,i+1,j,k) - u(2,i-1,j,k))

               rhs(2,i,j,k) = rhs(2,i,j,k) + dx2*tx1 *
     >                   (u(2,i+1,j,k) - 2.0d0*u(2,i,j,k) +
     >                    u(2,i-1,j,k)) -
     >                   tx2 * (u(2,i+1,j,k)*up1 -
     >                          u(2,i-1,j,k)*um1 +
     >                   (u(5,i+1,j,k)- square(i+1,j,k)-
     >                    u(5,i-1,j,k)+ square(i-1,j,k))*
     >                    c2)
            end do
         end do
      end do

c---------------------------------------------------------------------
c     add fourth order xi-direction dissipation
c---------------------------------------------------------------------
      do k = 1, grid_points(3)-2
         do j = 1, grid_points(2)-2
            i = 1
            do m = 1, 5
               rhs(m,i,j,k) = rhs(m,i,j,k)- dssp *
     >                  ( 5.0d0*u(m,i,j,k) - 4.0d0*u(m,i+1,j,k) +
     >                    u(m,i+2,j,k))
            end do
            do i = 3, grid_points(1)-4
               do m = 1, 5
                  rhs(m,i,j,k) = rhs(m,i,j,k) - dssp *
     >                 (  u(m,i-2,j,k) - 4.0d0*u(m,i-1,j,k) +
     >                  6.0*u(m,i,j,k) - 4.0d0*u(m,i+1,j,k) +
     >                      u(m,i+2,j,k) )
               end do
            end do
         end do
      end do

      do k = 1, grid_points(3)-2
         do j = 1, grid_points(2)-2
            do i = 1, grid_points(1)-2
               do m = 1, 5
                  rhs(m,i,j,k) = rhs(m,i,j,k) * dt
               end do
            end do
         end do
      end do
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine add
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, j, k, m

      do k = 1, grid_points(3)-2
         do j = 1, grid_points(2)-2
            do i = 1, grid_points(1)-2
               do m = 1, 5
                  u(m,i,j,k) = u(m,i,j,k) + rhs(m,i,j,k)
               end do
            end do
         end do
      end do
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine error_norm(rms)
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, j, k, m, d
      double precision rms(5), add

      do m = 1, 5
         rms(m) = 0.0d0
      enddo

      do k = 0, grid_points(3)-1
         do j = 0, grid_points(2)-1
            do i = 0, grid_points(1)-1
               do m = 1, 5
                  add = u(m,i,j,k) - 1.0d0
                  rms(m) = rms(m) + add*add
               end do
            end do
         end do
      end do

      do m = 1, 5
         do d = 1, 3
            rms(m) = rms(m) / dble(grid_points(d)-2)
         end do
         rms(m) = dsqrt(rms(m))
      end do
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      subroutine rhs_norm(rms)
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      include 'header.h'
      integer i, j, k, d, m
      double precision rms(5), add

      do m = 1, 5
         rms(m) = 0.0d0
      enddo

      do k = 1, grid_points(3)-2
         do j = 1, grid_points(2)-2
            do i = 1, grid_points(1)-2
               do m = 1, 5
                  add = rhs(m,i,j,k)
                  rms(m) = rms(m) + add*add
               enddo
            enddo
         enddo
      enddo

      do m = 1, 5
         do d = 1, 3
            rms(m) = rms(m) / dble(grid_points(d)-2)
         enddo
         rms(m) = dsqrt(rms(m))
      enddo
      return
      end

c---------------------------------------------------------------------
c---------------------------------------------------------------------
      double precision function timer_read(n)
c---------------------------------------------------------------------
c---------------------------------------------------------------------
      implicit none
      integer n
      timer_read = dble(n) * 0.0d0
      return
      end
