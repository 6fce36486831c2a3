! A Fortran 90 program through `use mpi` (tests/python/test_fortran.py): module variables and SAVE state of each rank,
! derived datatypes, a Cartesian topology, non-blocking completion with 1-based indices (MPI_WAITSOME, MPI_TESTALL),
! MPI_ALLTOALL and MPI_REDUCE_SCATTER_BLOCK, sized types and MPI_2DOUBLE_PRECISION pairs, MPI_PROBE's status,
! info strings and the kinds MPI_TYPE_CREATE_F90_REAL/COMPLEX/INTEGER choose. Every line it prints is the same under mpisim and Open MPI (compared sorted). Run with 4 ranks.
module rank_state
  implicit none
  integer :: calls = 0            ! a module variable: each rank's own
  double precision :: history(3) = 0
end module rank_state

module helpers
  use rank_state
  implicit none
contains
  integer function next_ticket()
    integer, save :: ticket = 0  ! a SAVE variable of a module procedure
    ticket = ticket + 1
    calls = calls + 1
    next_ticket = ticket
  end function next_ticket
end module helpers

program fortran90
  use mpi
  use helpers
  implicit none
  integer :: rank, nranks, ierr, i, n, ticket, cart, vector, outcount
  integer :: dims(2), coords(2), src, dst, flag_count
  logical :: periods(2), done
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 4), requests(4), indices(4)
  integer, allocatable :: sendbuf(:), recvbuf(:)
  integer :: matrix(4, 3), column(4), info, valuelen
  integer(kind=8) :: big, bigsum
  double precision :: pair(2), minpair(2), three(3)
  real(kind=4) :: r4(2)
  character(len=MPI_MAX_INFO_VAL) :: value
  logical :: found, refused(3)
  integer :: f90_types(7), f90_sizes(7), envelope(4), contents(2), types(1)
  integer(kind=MPI_ADDRESS_KIND) :: addresses(1)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)

  ! Module and SAVE state: rank r takes r + 1 tickets before a barrier
  do i = 0, rank
    ticket = next_ticket()
  end do
  history(1) = 10.0d0 * rank
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  write (*, '(A,I2,A,I3,A,I3,A,F6.1)') 'rank', rank, ' ticket', ticket, ' calls', calls, ' history', history(1)

  ! A column of a matrix (a vector type), sent to the next rank
  matrix = reshape([(i + 100 * rank, i = 1, 12)], [4, 3])
  call MPI_TYPE_VECTOR(3, 1, 4, MPI_INTEGER, vector, ierr)
  call MPI_TYPE_COMMIT(vector, ierr)
  dst = mod(rank + 1, nranks)
  src = mod(rank + nranks - 1, nranks)
  call MPI_SENDRECV(matrix(2, 1), 1, vector, dst, 1, column, 3, MPI_INTEGER, src, 1, MPI_COMM_WORLD, status, ierr)
  call MPI_GET_COUNT(status, MPI_INTEGER, n, ierr)
  call MPI_TYPE_FREE(vector, ierr)
  write (*, '(A,I2,A,3I5,A,I2)') 'rank', rank, ' row', column(1:3), ' count', n

  ! A 2 x 2 periodic grid
  dims = 0
  call MPI_DIMS_CREATE(nranks, 2, dims, ierr)
  periods = [.true., .false.]
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_CART_COORDS(cart, rank, 2, coords, ierr)
  call MPI_CART_SHIFT(cart, 0, 1, src, dst, ierr)
  write (*, '(A,I2,A,2I2,A,2I2,A,2I3)') 'rank', rank, ' dims', dims, ' coords', coords, ' shift', src, dst
  call MPI_COMM_FREE(cart, ierr)

  ! Four non-blocking receives, completed by MPI_WAITSOME (1-based indices), then MPI_TESTALL
  allocate (sendbuf(nranks), recvbuf(nranks))
  sendbuf = [(rank * 10 + i, i = 1, nranks)]
  do i = 1, nranks
    call MPI_IRECV(recvbuf(i), 1, MPI_INTEGER, i - 1, 7, MPI_COMM_WORLD, requests(i), ierr)
  end do
  do i = 1, nranks
    call MPI_SEND(sendbuf(i), 1, MPI_INTEGER, i - 1, 7, MPI_COMM_WORLD, ierr)
  end do
  flag_count = 0
  call MPI_WAITSOME(nranks, requests, outcount, indices, statuses, ierr)
  do i = 1, outcount
    if (indices(i) >= 1 .and. indices(i) <= nranks) then
      if (statuses(MPI_SOURCE, i) == indices(i) - 1) flag_count = flag_count + 1
    end if
  end do
  done = .false.
  do while (.not. done)
    call MPI_TESTALL(nranks, requests, done, MPI_STATUSES_IGNORE, ierr)
  end do
  write (*, '(A,I2,A,4I4,A,L2)') 'rank', rank, ' gathered', recvbuf, ' waitsome sources match', flag_count == outcount

  ! Collectives on arrays
  call MPI_ALLTOALL(sendbuf, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_REDUCE_SCATTER_BLOCK(sendbuf, n, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  big = 3000000000_8 + rank
  call MPI_ALLREDUCE(big, bigsum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  pair = [dble(mod(rank + 2, 4)), dble(rank)]
  call MPI_ALLREDUCE(pair, minpair, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  r4 = [real(rank), 2.5]
  call MPI_ALLREDUCE(MPI_IN_PLACE, r4, 2, MPI_REAL4, MPI_MAX, MPI_COMM_WORLD, ierr)
  write (*, '(A,I2,A,4I4,A,I4,A,I12,A,2F4.0,A,2F5.1)') 'rank', rank, ' alltoall', recvbuf, ' scatter', n, &
      ' int8 sum', bigsum, ' minloc', minpair, ' real4 max', r4
  deallocate (sendbuf, recvbuf)

  ! MPI_PROBE's status, then the message
  if (rank == 0) then
    call MPI_SEND([1.5d0, 2.5d0, 3.5d0], 3, MPI_DOUBLE_PRECISION, 1, 42, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_PROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, n, ierr)
    call MPI_RECV(three, n, MPI_DOUBLE_PRECISION, status(MPI_SOURCE), status(MPI_TAG), MPI_COMM_WORLD, &
                  MPI_STATUS_IGNORE, ierr)
    write (*, '(A,I2,A,I2,A,I3,A,I2,A,F5.1)') 'rank', rank, ' probed source', status(MPI_SOURCE), ' tag', &
        status(MPI_TAG), ' count', n, ' sum', sum(three)
  end if

  ! Info strings: keys and values with their Fortran lengths
  call MPI_INFO_CREATE(info, ierr)
  call MPI_INFO_SET(info, 'color   ', 'blue and green', ierr)
  call MPI_INFO_GET_VALUELEN(info, 'color', valuelen, found, ierr)
  call MPI_INFO_GET(info, 'color', MPI_MAX_INFO_VAL, value, found, ierr)
  call MPI_INFO_GET_NKEYS(info, n, ierr)
  call MPI_INFO_FREE(info, ierr)
  write (*, '(A,I2,A,L2,A,I3,A,A,A,I2)') 'rank', rank, ' info found', found, ' valuelen', valuelen, &
      ' value [', trim(value), '] keys', n

  ! Kinds chosen by precision and range: sizes, one handle per (p, r), envelope and contents, use in reductions, and
  ! what no kind has (the errors returned once MPI_COMM_WORLD returns them)
  call MPI_TYPE_CREATE_F90_REAL(15, 307, f90_types(1), ierr)
  call MPI_TYPE_CREATE_F90_REAL(15, 307, f90_types(2), ierr)
  call MPI_TYPE_CREATE_F90_REAL(6, MPI_UNDEFINED, f90_types(3), ierr)
  call MPI_TYPE_CREATE_F90_COMPLEX(15, MPI_UNDEFINED, f90_types(4), ierr)
  call MPI_TYPE_CREATE_F90_INTEGER(18, f90_types(5), ierr)
  call MPI_TYPE_CREATE_F90_INTEGER(2, f90_types(6), ierr)
  call MPI_TYPE_CREATE_F90_REAL(MPI_UNDEFINED, 4931, f90_types(7), ierr)
  do i = 1, 7
    call MPI_TYPE_SIZE(f90_types(i), f90_sizes(i), ierr)
  end do
  call MPI_TYPE_GET_ENVELOPE(f90_types(1), envelope(1), envelope(2), envelope(3), envelope(4), ierr)
  call MPI_TYPE_GET_CONTENTS(f90_types(1), 2, 0, 0, contents, addresses, types, ierr)
  if (rank == 0) write (*, '(A,7I3,A,L2,A,3I2,L2,A,2I4)') 'kinds sizes', f90_sizes, ' same handle', &
      f90_types(1) == f90_types(2), ' envelope', envelope(1:3), envelope(4) == MPI_COMBINER_F90_REAL, ' contents', &
      contents
  three = [1.5d0, dble(rank), 2d0**(-rank)]
  call MPI_ALLREDUCE(MPI_IN_PLACE, three, 3, f90_types(1), MPI_SUM, MPI_COMM_WORLD, ierr)
  big = 3000000000_8 * (rank + 1)
  call MPI_REDUCE(big, bigsum, 1, f90_types(5), MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(A,3F7.3,I13)') 'kinds sums', three, bigsum
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_TYPE_CREATE_F90_REAL(40, 10, f90_types(1), ierr)
  refused(1) = ierr /= MPI_SUCCESS
  call MPI_TYPE_CREATE_F90_INTEGER(39, f90_types(1), ierr)
  refused(2) = ierr /= MPI_SUCCESS
  call MPI_TYPE_FREE(f90_types(3), ierr)
  refused(3) = ierr /= MPI_SUCCESS
  if (rank == 0) write (*, '(A,3L2)') 'kinds refused p 40, r 39, free', refused

  call MPI_FINALIZE(ierr)
end program fortran90
