! MPI-IO from Fortran through the generated binding (the mpi module): each rank writes its rank number at its own
! offset, then rank 0 reads them all back and prints them.
program io_fortran
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, fh, i
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: offset
  integer :: values(64)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_FILE_OPEN(MPI_COMM_WORLD, 'fortran.dat', MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  offset = rank * 4
  call MPI_FILE_WRITE_AT(fh, offset, rank, 1, MPI_INTEGER, status, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  if (rank == 0) then
    offset = 0
    call MPI_FILE_READ_AT(fh, offset, values, nprocs, MPI_INTEGER, status, ierr)
    print '(A,*(I3))', 'read back:', (values(i), i = 1, nprocs)
  end if
  call MPI_FILE_CLOSE(fh, ierr)
  if (fh /= MPI_FILE_NULL) print *, 'handle not reset'
  call MPI_FINALIZE(ierr)
end program io_fortran
