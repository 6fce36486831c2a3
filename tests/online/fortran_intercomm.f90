! Intercommunicators from Fortran (`use mpi`): MPI_COMM_WORLD's even and odd ranks joined by MPI_Intercomm_create,
! a value swapped between ranks of the same local rank (the status names the sender's rank in its group), the remote
! group translated to world ranks, a merge with the odd ranks first (LOGICAL high). The same lines as under Open MPI.
program fortran_intercomm
  use mpi
  implicit none
  integer :: ierr, rank, nranks, half, inter, merged, remote_size, local_rank, merged_rank, theirs, i
  integer :: remote_group, world_group, status(MPI_STATUS_SIZE)
  integer :: in_remote(64), in_world(64)
  logical :: is_inter

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - mod(rank, 2), 11, inter, ierr)
  call MPI_Comm_test_inter(inter, is_inter, ierr)
  call MPI_Comm_rank(inter, local_rank, ierr)
  call MPI_Comm_remote_size(inter, remote_size, ierr)
  call MPI_Comm_remote_group(inter, remote_group, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  do i = 1, remote_size
    in_remote(i) = i - 1
  end do
  call MPI_Group_translate_ranks(remote_group, remote_size, in_remote, world_group, in_world, ierr)
  theirs = -1
  status(MPI_SOURCE) = -1
  if (local_rank < remote_size) then
    call MPI_Sendrecv(rank, 1, MPI_INTEGER, local_rank, 3, theirs, 1, MPI_INTEGER, MPI_ANY_SOURCE, 3, inter, &
                      status, ierr)
  end if
  call MPI_Intercomm_merge(inter, mod(rank, 2) == 0, merged, ierr)
  call MPI_Comm_rank(merged, merged_rank, ierr)
  print '(a,i0,a,l1,a,i0,a,*(1x,i0))', 'rank ', rank, ' inter ', is_inter, ' remote size ', remote_size, &
      ' remote world ranks', in_world(1:remote_size)
  print '(a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' got ', theirs, ' from ', status(MPI_SOURCE), ' merged rank ', &
      merged_rank
  call MPI_Group_free(remote_group, ierr)
  call MPI_Group_free(world_group, ierr)
  call MPI_Comm_free(merged, ierr)
  call MPI_Comm_free(inter, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Finalize(ierr)
end program fortran_intercomm
