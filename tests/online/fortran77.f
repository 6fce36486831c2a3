! A Fortran 77 program through mpif.h (tests/python/test_fortran.py): point-to-point with status fields,
! collectives (MPI_IN_PLACE, MAXLOC pairs), communicators and their names, strings with hidden lengths,
! MPI_BOTTOM with absolute addresses, and COMMON and SAVE state that must stay each rank's own. Every line
! it prints is the same under mpisim and Open MPI (compared sorted). Run with 4 ranks.
      program fortran77
      implicit none
      include 'mpif.h'
      integer rank, nranks, ierr, peer, n, i, len, color
      integer status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
      integer requests(2), index, sub, dup, result, values(4)
      integer pairs(2), best(2), counts
      double precision x, y, sums(4), t0, t1
      complex z, zs
      logical flag, anyflag
      character*(MPI_MAX_OBJECT_NAME) name
      character*(MPI_MAX_ERROR_STRING) text
      character*12 word
      integer icount, itotal
      double precision shared
      common /ranks/ icount, itotal, shared
      integer kind, spot, block(1), newtype
      integer(kind=MPI_ADDRESS_KIND) address(1), tagub

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
      t0 = MPI_WTIME()

! COMMON and SAVE: written before a barrier, read after it
      icount = 100 * rank
      shared = 0.5d0 * rank
      do i = 1, rank + 1
         call tally(itotal)
      end do
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)
      write (*, '(A,I2,A,I4,A,F5.2,A,I2)') 'rank', rank,
     &   ' common', icount, ' shared', shared, ' saved', itotal

! A ring: each rank sends its rank to the next, receives from the previous (status fields)
      peer = mod(rank + 1, nranks)
      n = mod(rank + nranks - 1, nranks)
      x = rank + 0.25d0
      call MPI_SENDRECV(x, 1, MPI_DOUBLE_PRECISION, peer, 10 + rank,
     &   y, 1, MPI_DOUBLE_PRECISION, n, 10 + n,
     &   MPI_COMM_WORLD, status, ierr)
      call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, n, ierr)
      write (*, '(A,I2,A,F5.2,A,I2,A,I3,A,I2)') 'rank', rank,
     &   ' ring got', y, ' from', status(MPI_SOURCE), ' tag',
     &   status(MPI_TAG), ' count', n

! Non-blocking pair exchange, completion by MPI_WAITANY (1-based index) and MPI_WAITALL
      peer = ieor(rank, 1)
      values(1) = rank * 7
      call MPI_IRECV(values(2), 1, MPI_INTEGER, peer, 3,
     &   MPI_COMM_WORLD, requests(1), ierr)
      call MPI_ISEND(values(1), 1, MPI_INTEGER, peer, 3,
     &   MPI_COMM_WORLD, requests(2), ierr)
      call MPI_WAITANY(2, requests, index, status, ierr)
      call MPI_WAITALL(2, requests, statuses, ierr)
      flag = requests(1) .eq. MPI_REQUEST_NULL .and.
     &   requests(2) .eq. MPI_REQUEST_NULL
      write (*, '(A,I2,A,I3,A,L2,A,L2)') 'rank', rank, ' pair got',
     &   values(2), ' index in 1..2', index .ge. 1 .and. index .le. 2,
     &   ' requests null', flag

! Statuses ignored
      call MPI_SEND(rank, 1, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, ierr)
      call MPI_RECV(values(3), 1, MPI_INTEGER, peer, 4,
     &   MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_IRECV(values(4), 1, MPI_INTEGER, peer, 5,
     &   MPI_COMM_WORLD, requests(1), ierr)
      call MPI_ISEND(rank, 1, MPI_INTEGER, peer, 5,
     &   MPI_COMM_WORLD, requests(2), ierr)
      call MPI_WAITALL(2, requests, MPI_STATUSES_IGNORE, ierr)
      write (*, '(A,I2,A,2I3)') 'rank', rank, ' ignored statuses',
     &   values(3), values(4)

! Collectives
      if (rank .eq. 0) then
         word = 'broadcast'
      else
         word = ' '
      end if
      call MPI_BCAST(word, 12, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
      x = rank + 1
      call MPI_ALLREDUCE(MPI_IN_PLACE, x, 1, MPI_DOUBLE_PRECISION,
     &   MPI_SUM, MPI_COMM_WORLD, ierr)
      call MPI_GATHER(x * rank, 1, MPI_DOUBLE_PRECISION, sums, 1,
     &   MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
      z = cmplx(rank, -rank)
      call MPI_REDUCE(z, zs, 1, MPI_COMPLEX, MPI_SUM, 0,
     &   MPI_COMM_WORLD, ierr)
      pairs(1) = mod(rank * 5, 7)
      pairs(2) = rank
      call MPI_ALLREDUCE(pairs, best, 1, MPI_2INTEGER, MPI_MAXLOC,
     &   MPI_COMM_WORLD, ierr)
      flag = rank .eq. 2
      call MPI_ALLREDUCE(flag, anyflag, 1, MPI_LOGICAL, MPI_LOR,
     &   MPI_COMM_WORLD, ierr)
      call MPI_SCAN(rank, counts, 1, MPI_INTEGER, MPI_SUM,
     &   MPI_COMM_WORLD, ierr)
      write (*, '(A,I2,1X,A,F6.2,A,2I3,A,L2,A,I3)') 'rank', rank,
     &   word, x, ' maxloc', best, ' lor', anyflag, ' scan', counts
      if (rank .eq. 0) write (*, '(A,4F6.2,A,2F6.2)') 'gathered',
     &   sums, ' complex sum', zs

! Communicators: split by parity, duplicate, compare, names
      color = mod(rank, 2)
      call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, -rank, sub, ierr)
      call MPI_COMM_RANK(sub, n, ierr)
      call MPI_COMM_DUP(sub, dup, ierr)
      call MPI_COMM_COMPARE(sub, dup, result, ierr)
      call MPI_COMM_SET_NAME(dup, 'parity copy  ', ierr)
      call MPI_COMM_GET_NAME(dup, name, len, ierr)
      call MPI_ALLREDUCE(rank, i, 1, MPI_INTEGER, MPI_SUM, sub, ierr)
      write (*, '(A,I2,A,I2,A,I2,A,L2,A,A,A,I3,A,L2)') 'rank', rank,
     &   ' sub rank', n, ' sub sum', i, ' congruent',
     &   result .eq. MPI_CONGRUENT, ' name [', name(1:len), '] length',
     &   len, ' padded', name(len+1:) .eq. ' '
      call MPI_COMM_FREE(dup, ierr)
      call MPI_COMM_FREE(sub, ierr)

! Strings the library writes: lengths and blank padding (the texts differ between libraries)
      call MPI_ERROR_STRING(MPI_ERR_TAG, text, len, ierr)
      write (*, '(A,I2,A,L2,A,L2)') 'rank', rank, ' error string',
     &   len .gt. 0, ' padded', text(len+1:) .eq. ' '
      call MPI_GET_PROCESSOR_NAME(name, len, ierr)
      write (*, '(A,I2,A,L2)') 'rank', rank, ' processor name',
     &   len .gt. 0 .and. name(len+1:) .eq. ' '

! MPI_BOTTOM: a type of one absolute address
      call MPI_GET_ADDRESS(spot, address(1), ierr)
      block(1) = 1
      kind = MPI_INTEGER
      call MPI_TYPE_CREATE_STRUCT(1, block, address, kind, newtype,
     &   ierr)
      call MPI_TYPE_COMMIT(newtype, ierr)
      spot = 1000 + rank
      call MPI_SENDRECV_REPLACE(MPI_BOTTOM, 1, newtype, peer, 6, peer,
     &   6, MPI_COMM_WORLD, status, ierr)
      call MPI_TYPE_FREE(newtype, ierr)
      write (*, '(A,I2,A,I5)') 'rank', rank, ' bottom got', spot

! An attribute, an error returned rather than fatal
      call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag,
     &   ierr)
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &   ierr)
      call MPI_SEND(rank, 1, MPI_INTEGER, nranks, 0, MPI_COMM_WORLD,
     &   ierr)
      call MPI_ERROR_CLASS(ierr, i, ierr)
      t1 = MPI_WTIME()
      write (*, '(A,I2,A,L2,A,L2,A,L2)') 'rank', rank, ' tag_ub',
     &   flag .and. tagub .ge. 32767, ' bad rank',
     &   i .eq. MPI_ERR_RANK, ' time goes on', t1 .ge. t0

      call MPI_FINALIZE(ierr)
      end

! A SAVE variable: how many times this rank called it
      subroutine tally(total)
      integer total, calls
      save calls
      data calls /0/
      calls = calls + 1
      total = calls
      end
