! A program through `use mpi_f08` (tests/python/test_fortran.py): derived-type handles and their == and /=, the
! MPI_Status type's fields, ierror left out or given, MPI_IN_PLACE, MPI_STATUSES_IGNORE, 1-based MPI_Waitany, a
! derived datatype, a split communicator (freed by MPI_Comm_disconnect), an attribute copy callback taking
! TYPE(MPI_Comm), info strings, an error returned under MPI_ERRORS_RETURN, a kind chosen by precision
! (MPI_Type_create_f90_real) and a port found through the name service. Every line it prints is the same under mpisim
! and Open MPI (compared sorted). Run with 4 ranks.
module f08_callbacks
  use mpi_f08
  implicit none
contains
  subroutine add_rank(oldcomm, keyval, extra, valin, valout, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    integer :: rank
    call MPI_Comm_rank(oldcomm, rank) ! the handle the callback gets is usable
    valout = valin + extra + rank
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine add_rank
end module f08_callbacks

program fortran2008
  use mpi_f08
  use f08_callbacks
  implicit none
  integer :: rank, nranks, ierror, n, index, keyval, valuelen, color
  type(MPI_Comm) :: half, dup
  type(MPI_Status) :: status
  type(MPI_Request) :: requests(2)
  type(MPI_Datatype) :: pair
  type(MPI_Info) :: info
  double precision :: sent(2), got(2), total
  integer(kind=MPI_ADDRESS_KIND) :: extra, value
  logical :: flag
  character(len=MPI_MAX_INFO_VAL) :: text
  character(len=MPI_MAX_PORT_NAME) :: port, found

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierror)
  print '(A,I2,A,I2,A,L2,L2)', 'rank', rank, ' of', nranks, ' handles', MPI_COMM_WORLD == MPI_COMM_WORLD, &
    MPI_COMM_WORLD /= MPI_COMM_SELF

  ! A ring of two doubles: the status fields and count.
  sent = [rank + 0.5d0, 10.0d0 * rank]
  call MPI_Sendrecv(sent, 2, MPI_DOUBLE_PRECISION, mod(rank + 1, nranks), 7 + rank, got, 2, MPI_DOUBLE_PRECISION, &
                    mod(rank + nranks - 1, nranks), MPI_ANY_TAG, MPI_COMM_WORLD, status)
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, n)
  print '(A,I2,A,2F6.1,A,I2,A,I3,A,I2)', 'rank', rank, ' got', got, ' from', status%MPI_SOURCE, ' tag', &
    status%MPI_TAG, ' count', n

  ! Non-blocking, completed one by one with MPI_Waitany, then both null.
  call MPI_Irecv(got, 1, pair_or_double(), mod(rank + nranks - 1, nranks), 1, MPI_COMM_WORLD, requests(1))
  call MPI_Isend(sent, 1, MPI_DOUBLE_PRECISION, mod(rank + 1, nranks), 1, MPI_COMM_WORLD, requests(2))
  call MPI_Waitany(2, requests, index, status)
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
  print '(A,I2,A,L2,A,L2,F6.1)', 'rank', rank, ' waitany index in 1..2', index >= 1 .and. index <= 2, ' null', &
    requests(1) == MPI_REQUEST_NULL .and. requests(2) == MPI_REQUEST_NULL, got(1)

  ! MPI_IN_PLACE and a derived datatype.
  total = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Type_contiguous(2, MPI_DOUBLE_PRECISION, pair)
  call MPI_Type_commit(pair)
  sent = [1.0d0 * rank, -1.0d0 * rank]
  call MPI_Bcast(sent, 1, pair, 3, MPI_COMM_WORLD)
  call MPI_Type_size(pair, n)
  call MPI_Type_free(pair)
  print '(A,I2,A,F6.1,A,2F6.1,A,I3,A,L2)', 'rank', rank, ' sum', total, ' bcast', sent, ' size', n, ' freed', &
    pair == MPI_DATATYPE_NULL

  ! A split communicator and an attribute copied by a callback taking TYPE(MPI_Comm).
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, half)
  call MPI_Comm_rank(half, n)
  extra = 100
  call MPI_Comm_create_keyval(add_rank, MPI_COMM_NULL_DELETE_FN, keyval, extra)
  value = 1000 * (rank + 1)
  call MPI_Comm_set_attr(half, keyval, value)
  call MPI_Comm_dup(half, dup)
  call MPI_Comm_get_attr(dup, keyval, value, flag)
  print '(A,I2,A,I2,A,L2,I6)', 'rank', rank, ' half rank', n, ' attr', flag, value
  call MPI_Comm_free(dup)
  call MPI_Comm_disconnect(half)
  print '(A,I2,A,L2)', 'rank', rank, ' half disconnected', half == MPI_COMM_NULL
  call MPI_Comm_free_keyval(keyval)

  ! Info strings and an error returned in ierror.
  if (rank == 0) then
    call MPI_Info_create(info)
    call MPI_Info_set(info, 'colour', ' blue ')
    call MPI_Info_get_valuelen(info, 'colour', valuelen, flag)
    call MPI_Info_get(info, 'colour', MPI_MAX_INFO_VAL, text, flag)
    call MPI_Info_free(info)
    print '(A,I3,A,A,A,L2)', 'info valuelen', valuelen, ' [', trim(text), '] null', info == MPI_INFO_NULL
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Send(sent, 1, MPI_DOUBLE_PRECISION, nranks + 5, 0, MPI_COMM_WORLD, ierror)
    call MPI_Error_class(ierror, n)
    print '(A,L2)', 'bad rank returns MPI_ERR_RANK', n == MPI_ERR_RANK
    ! a kind chosen by precision, ierror left out: real(12) is KIND=8
    call MPI_Type_create_f90_real(12, MPI_UNDEFINED, pair)
    call MPI_Type_size(pair, n)
    print '(A,I3)', 'f90 real(12) size', n
    ! a port published under a name and found by it (Fortran strings, blank-padded)
    call MPI_Open_port(MPI_INFO_NULL, port)
    call MPI_Publish_name('river', MPI_INFO_NULL, port)
    call MPI_Lookup_name('river', MPI_INFO_NULL, found)
    call MPI_Unpublish_name('river', MPI_INFO_NULL, port)
    call MPI_Close_port(port)
    print '(A,L2)', 'port found by name', found == port .and. len_trim(port) > 0
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Finalize()

contains
  type(MPI_Datatype) function pair_or_double()
    pair_or_double = MPI_DOUBLE_PRECISION
  end function pair_or_double
end program fortran2008
