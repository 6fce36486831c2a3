/* Ports and the name service of MPI's process management (MPI-3.1 sections 10.4.2 and 10.4.4), within one run.
 *   names          rank 0 opens a port and publishes it as "ocean"; every rank looks the name up and compares it with
 *                  the port rank 0 broadcast; rank 0 unpublishes it and closes the port; a lookup then fails with
 *                  MPI_ERR_NAME. Lines the same under Open MPI.
 *   names errors   (rank 0) what mpisim refuses, by error class: misused names and ports, and the calls that would
 *                  connect to other processes (spawn, accept, connect, join), which leave MPI_COMM_NULL
 *   names spawn    MPI_Comm_spawn under MPI_ERRORS_ARE_FATAL: the run ends with the report */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char* class_name(int error)
{
  int error_class;
  MPI_Error_class(error, &error_class);
  switch (error_class) {
  case MPI_SUCCESS: return "MPI_SUCCESS";
  case MPI_ERR_NAME: return "MPI_ERR_NAME";
  case MPI_ERR_SERVICE: return "MPI_ERR_SERVICE";
  case MPI_ERR_PORT: return "MPI_ERR_PORT";
  case MPI_ERR_SPAWN: return "MPI_ERR_SPAWN";
  case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
  case MPI_ERR_INFO: return "MPI_ERR_INFO";
  default: return "another class";
  }
}

static void publish_and_look_up(int rank)
{
  char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
  if (rank == 0) {
    MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Publish_name("ocean", MPI_INFO_NULL, port);
  }
  MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  const int error = MPI_Lookup_name("ocean", MPI_INFO_NULL, found);
  printf("rank %d: lookup of ocean: %s, rank 0's port: %d\n", rank, class_name(error), strcmp(port, found) == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("unpublish: %s\n", class_name(MPI_Unpublish_name("ocean", MPI_INFO_NULL, port)));
    printf("close: %s\n", class_name(MPI_Close_port(port)));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: lookup after unpublishing: %s\n", rank, class_name(MPI_Lookup_name("ocean", MPI_INFO_NULL, found)));
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  printf("rank %d: parent is MPI_COMM_NULL: %d\n", rank, parent == MPI_COMM_NULL);
}

static void errors(void)
{
  char port[MPI_MAX_PORT_NAME], other[MPI_MAX_PORT_NAME];
  MPI_Open_port(MPI_INFO_NULL, port);
  MPI_Open_port(MPI_INFO_NULL, other);
  printf("ports %s %s\n", port, other);
  printf("publish: %s\n", class_name(MPI_Publish_name("sea", MPI_INFO_NULL, port)));
  printf("publish of the same pair: %s\n", class_name(MPI_Publish_name("sea", MPI_INFO_NULL, port)));
  printf("publish of a second port: %s\n", class_name(MPI_Publish_name("sea", MPI_INFO_NULL, other)));
  char found[MPI_MAX_PORT_NAME];
  MPI_Lookup_name("sea", MPI_INFO_NULL, found);
  printf("lookup gives the first: %d\n", strcmp(found, port) == 0);
  printf("unpublish of a pair never published: %s\n", class_name(MPI_Unpublish_name("sea", MPI_INFO_NULL, "x")));
  MPI_Unpublish_name("sea", MPI_INFO_NULL, port);
  MPI_Lookup_name("sea", MPI_INFO_NULL, found);
  printf("lookup then gives the second: %d\n", strcmp(found, other) == 0);
  MPI_Info info, stale;
  MPI_Info_create(&info);
  stale = info;
  MPI_Info_free(&info);
  printf("publish with a freed info: %s\n", class_name(MPI_Publish_name("sea", stale, other)));
  printf("close: %s\n", class_name(MPI_Close_port(port)));
  printf("close again: %s\n", class_name(MPI_Close_port(port)));
  MPI_Comm made = MPI_COMM_WORLD;
  printf("spawn: %s", class_name(MPI_Comm_spawn("./worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &made,
                                                MPI_ERRCODES_IGNORE)));
  printf(", null: %d\n", made == MPI_COMM_NULL);
  char* commands[1] = {"./worker"};
  int maxprocs[1] = {1};
  MPI_Info infos[1] = {MPI_INFO_NULL};
  made = MPI_COMM_WORLD;
  printf("spawn_multiple: %s", class_name(MPI_Comm_spawn_multiple(1, commands, MPI_ARGVS_NULL, maxprocs, infos, 0,
                                                                  MPI_COMM_SELF, &made, MPI_ERRCODES_IGNORE)));
  printf(", null: %d\n", made == MPI_COMM_NULL);
  made = MPI_COMM_WORLD;
  printf("accept: %s", class_name(MPI_Comm_accept(other, MPI_INFO_NULL, 0, MPI_COMM_SELF, &made)));
  printf(", null: %d\n", made == MPI_COMM_NULL);
  made = MPI_COMM_WORLD;
  printf("connect: %s", class_name(MPI_Comm_connect(other, MPI_INFO_NULL, 0, MPI_COMM_SELF, &made)));
  printf(", null: %d\n", made == MPI_COMM_NULL);
  made = MPI_COMM_WORLD;
  printf("join: %s", class_name(MPI_Comm_join(0, &made)));
  printf(", null: %d\n", made == MPI_COMM_NULL);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    if (rank == 0)
      errors();
  } else if (argc > 1 && strcmp(argv[1], "spawn") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm children;
    MPI_Comm_spawn("./worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, MPI_ERRCODES_IGNORE);
  } else
    publish_and_look_up(rank);
  MPI_Finalize();
  return 0;
}
