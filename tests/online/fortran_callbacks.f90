! Procedures the library calls back, through `use mpi` (tests/python/test_fortran.py): attribute copy callbacks on
! MPI_COMM_DUP and MPI_TYPE_DUP, delete callbacks on MPI_COMM_FREE, MPI_TYPE_FREE, MPI_WIN_FREE, MPI_COMM_DELETE_ATTR
! and on replacing a value, the predefined MPI_COMM_DUP_FN / MPI_COMM_NULL_COPY_FN / MPI_DUP_FN / MPI_NULL_COPY_FN,
! the MPI-1 MPI_KEYVAL_CREATE with default INTEGER values, a copy callback failing, MPI_GREQUEST_START's query and
! free callbacks (given the program's extra state variable), and info keys and values with blanks. Every line it
! prints is the same under mpisim and Open MPI (compared sorted). Run with 4 ranks.
module callback_log
  implicit none
  integer :: copies = 0, deletes = 0, frees = 0
  integer(kind=8) :: deleted_sum = 0 ! of the values the delete callbacks saw
end module callback_log

module callbacks
  use mpi
  use callback_log
  implicit none
contains
  ! Adds the extra state to the value; an odd extra state declines the copy.
  subroutine add_extra(oldcomm, keyval, extra, valin, valout, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    copies = copies + 1
    valout = valin + extra
    flag = mod(extra, 2_MPI_ADDRESS_KIND) == 0
    ierr = MPI_SUCCESS
  end subroutine add_extra

  subroutine record_delete(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    deleted_sum = deleted_sum + val
    ierr = MPI_SUCCESS
  end subroutine record_delete

  subroutine refuse_copy(oldcomm, keyval, extra, valin, valout, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    flag = .false.
    ierr = MPI_ERR_OTHER
  end subroutine refuse_copy

  ! MPI-1 form: every argument a default INTEGER.
  subroutine negate(oldcomm, keyval, extra, valin, valout, flag, ierr)
    integer :: oldcomm, keyval, extra, valin, valout, ierr
    logical :: flag
    copies = copies + 1
    valout = -valin - extra
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine negate

  subroutine query(extra, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    status(MPI_SOURCE) = int(extra)
    status(MPI_TAG) = int(extra) + 1
    call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, int(extra) + 2, ierr)
    call MPI_STATUS_SET_CANCELLED(status, .false., ierr)
    ierr = MPI_SUCCESS
  end subroutine query

  subroutine release(extra, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    frees = frees + int(extra)
    extra = -1 ! the program's own variable: it sees this
    ierr = MPI_SUCCESS
  end subroutine release

  subroutine cancel(extra, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    ierr = MPI_SUCCESS
  end subroutine cancel
end module callbacks

program fortran_callbacks
  use mpi
  use callbacks
  implicit none
  integer :: rank, ierr, dup1, dup2, key_add, key_odd, key_dup, key_null, key_fail, key_type, key_win
  integer :: key_mpi1, key_mpi1_dup, newtype, win, request, count, info, nkeys, valuelen
  integer :: value1, status(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: extra, value, got, size
  logical :: flag, flag_odd, flag_dup, flag_null
  integer :: buffer(4)
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=20) :: text

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)

  ! Communicators: add_extra with an even extra state copies, with an odd one declines; the predefined callbacks.
  extra = 10
  call MPI_COMM_CREATE_KEYVAL(add_extra, record_delete, key_add, extra, ierr)
  extra = 1
  call MPI_COMM_CREATE_KEYVAL(add_extra, record_delete, key_odd, extra, ierr)
  extra = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key_dup, extra, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key_null, extra, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup1, ierr)
  value = 100 * rank + 1
  call MPI_COMM_SET_ATTR(dup1, key_add, value, ierr)
  call MPI_COMM_SET_ATTR(dup1, key_odd, value + 1, ierr)
  value = 5000000000_MPI_ADDRESS_KIND + rank ! beyond a default INTEGER
  call MPI_COMM_SET_ATTR(dup1, key_dup, value, ierr)
  call MPI_COMM_SET_ATTR(dup1, key_null, value, ierr)
  call MPI_COMM_DUP(dup1, dup2, ierr)
  call MPI_COMM_GET_ATTR(dup2, key_add, got, flag, ierr)
  call MPI_COMM_GET_ATTR(dup2, key_odd, value, flag_odd, ierr)
  call MPI_COMM_GET_ATTR(dup2, key_null, value, flag_null, ierr)
  call MPI_COMM_GET_ATTR(dup2, key_dup, value, flag_dup, ierr)
  print '(A,I2,A,L2,I5,A,L2,A,L2,A,L2,I12,A,I2)', 'rank', rank, ' dup add', flag, got, ' odd', flag_odd, &
    ' null', flag_null, ' dup', flag_dup, value, ' copies', copies
  call MPI_COMM_FREE(dup2, ierr) ! deletes key_add's 100 r + 11
  print '(A,I2,A,I2,A,I6)', 'rank', rank, ' after free deletes', deletes, ' sum', deleted_sum
  value = 7
  call MPI_COMM_SET_ATTR(dup1, key_add, value, ierr) ! replaces 100 r + 1: deleted
  call MPI_COMM_DELETE_ATTR(dup1, key_odd, ierr)     ! 100 r + 2
  print '(A,I2,A,I2,A,I6)', 'rank', rank, ' after replace and delete deletes', deletes, ' sum', deleted_sum

  call MPI_COMM_FREE(dup1, ierr) ! deletes key_add's 7

  ! A copy callback's error fails MPI_COMM_DUP (the only attribute of the communicator: no partial copy to undo).
  call MPI_COMM_CREATE_KEYVAL(refuse_copy, MPI_COMM_NULL_DELETE_FN, key_fail, extra, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup1, ierr)
  call MPI_COMM_SET_ATTR(dup1, key_fail, value, ierr)
  call MPI_COMM_SET_ERRHANDLER(dup1, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_DUP(dup1, dup2, ierr)
  print '(A,I2,A,L2)', 'rank', rank, ' failing copy fails dup', ierr /= MPI_SUCCESS
  call MPI_COMM_FREE(dup1, ierr)
  call MPI_COMM_FREE_KEYVAL(key_add, ierr)
  call MPI_COMM_FREE_KEYVAL(key_odd, ierr)
  call MPI_COMM_FREE_KEYVAL(key_dup, ierr)
  call MPI_COMM_FREE_KEYVAL(key_null, ierr)
  call MPI_COMM_FREE_KEYVAL(key_fail, ierr)
  print '(A,I2,A,I2,A,I6,A,L2)', 'rank', rank, ' after comm free deletes', deletes, ' sum', deleted_sum, &
    ' keyval invalid', key_add == MPI_KEYVAL_INVALID

  ! MPI-1: default INTEGER values, negative ones too.
  call MPI_KEYVAL_CREATE(negate, MPI_NULL_DELETE_FN, key_mpi1, 3, ierr)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, key_mpi1_dup, 0, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup1, ierr)
  call MPI_ATTR_PUT(dup1, key_mpi1, 40 + rank, ierr)
  call MPI_ATTR_PUT(dup1, key_mpi1_dup, -12345 - rank, ierr)
  call MPI_COMM_DUP(dup1, dup2, ierr)
  call MPI_ATTR_GET(dup2, key_mpi1, value1, flag, ierr)
  print '(A,I2,A,L2,I5)', 'rank', rank, ' mpi1 negate', flag, value1
  call MPI_ATTR_GET(dup2, key_mpi1_dup, value1, flag, ierr)
  print '(A,I2,A,L2,I8)', 'rank', rank, ' mpi1 dup', flag, value1
  call MPI_COMM_FREE(dup2, ierr)
  call MPI_COMM_FREE(dup1, ierr)
  call MPI_KEYVAL_FREE(key_mpi1, ierr)
  call MPI_KEYVAL_FREE(key_mpi1_dup, ierr)

  ! Datatypes and windows.
  copies = 0
  deletes = 0
  deleted_sum = 0
  extra = 2 * rank
  call MPI_TYPE_CREATE_KEYVAL(add_extra, record_delete, key_type, extra, ierr)
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, newtype, ierr)
  value = 1000
  call MPI_TYPE_SET_ATTR(newtype, key_type, value, ierr)
  call MPI_TYPE_DUP(newtype, dup1, ierr)
  call MPI_TYPE_GET_ATTR(dup1, key_type, got, flag, ierr)
  call MPI_TYPE_FREE(dup1, ierr)
  call MPI_TYPE_FREE(newtype, ierr)
  call MPI_TYPE_FREE_KEYVAL(key_type, ierr)
  print '(A,I2,A,L2,I6,A,I2,A,I2,A,I6)', 'rank', rank, ' type dup', flag, got, ' copies', copies, ' deletes', &
    deletes, ' sum', deleted_sum
  extra = 0
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_DUP_FN, record_delete, key_win, extra, ierr)
  size = 16
  call MPI_WIN_CREATE(buffer, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  value = 30 + rank
  call MPI_WIN_SET_ATTR(win, key_win, value, ierr)
  call MPI_WIN_GET_ATTR(win, key_win, got, flag, ierr)
  call MPI_WIN_FREE(win, ierr)
  call MPI_WIN_FREE_KEYVAL(key_win, ierr)
  print '(A,I2,A,L2,I4,A,I2,A,I6)', 'rank', rank, ' win attr', flag, got, ' deletes', deletes, ' sum', deleted_sum

  ! A generalized request: the query callback makes the status, the free callback runs once.
  extra = 5 + rank
  call MPI_GREQUEST_START(query, release, cancel, extra, request, ierr)
  call MPI_GREQUEST_COMPLETE(request, ierr)
  call MPI_WAIT(request, status, ierr)
  call MPI_GET_COUNT(status, MPI_INTEGER, count, ierr)
  print '(A,I2,A,I3,A,I3,A,I3,A,I3,A,I3,A,L2)', 'rank', rank, ' greq source', status(MPI_SOURCE), ' tag', &
    status(MPI_TAG), ' count', count, ' frees', frees, ' extra', extra, ' null', request == MPI_REQUEST_NULL

  ! Info keys and values lose leading and trailing blanks; MPI_INFO_GET truncates to VALUELEN and leaves the value
  ! alone when the key is absent.
  if (rank == 0) then
    call MPI_INFO_CREATE(info, ierr)
    call MPI_INFO_SET(info, '  spaced key ', '  two words  ', ierr)
    call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
    call MPI_INFO_GET_NTHKEY(info, 0, key, ierr)
    call MPI_INFO_GET_VALUELEN(info, 'spaced key', valuelen, flag, ierr)
    text = 'untouched'
    call MPI_INFO_GET(info, 'absent', 20, text, flag_odd, ierr)
    print '(A,I2,A,A,A,I3,A,L2,A,L2,A,A,A)', 'info keys', nkeys, ' [', trim(key), '] valuelen', valuelen, ' found', &
      flag, ' absent', flag_odd, ' [', trim(text), ']'
    call MPI_INFO_GET(info, ' spaced key', 3, text, flag, ierr)
    print '(A,L2,A,A,A)', 'info truncated', flag, ' [', text, ']'
    call MPI_INFO_FREE(info, ierr)
  end if

  call MPI_FINALIZE(ierr)
end program fortran_callbacks
