/* SMPI's header, for programs annotated for SimGrid's SMPI: mpisim's MPI interface and its annotations for large
 * studies under SMPI's names (mpisim.h). */
#ifndef MPISIM_SMPI_SMPI_H
#define MPISIM_SMPI_SMPI_H

#include <mpi.h>
#include <mpisim.h>

#endif /* MPISIM_SMPI_SMPI_H */
