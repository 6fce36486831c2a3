// Addresses and memory: MPI_Get_address (and its MPI-1 name MPI_Address, removed in MPI-3.0), MPI_Aint_add,
// MPI_Aint_diff, MPI_Alloc_mem, MPI_Free_mem.
#include "online/bindings/Arguments.hpp"
#include "online/objects/ProcessObjects.hpp"

using namespace mpisim::online;

extern "C" int PMPI_Get_address(const void* location, MPI_Aint* address)
{
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Address(const void* location, MPI_Aint* address)
{
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

extern "C" MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
  return base + disp;
}

extern "C" MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
  return addr1 - addr2;
}

extern "C" int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr)
{
  Runtime& runtime = Runtime::get();
  MPISIM_CHECK(runtime, size >= 0, MPI_COMM_WORLD, MPI_ERR_ARG, "negative size " + std::to_string(size));
  MPISIM_CHECK(runtime, info == MPI_INFO_NULL || runtime.process_objects().info(info) != nullptr, MPI_COMM_WORLD,
               MPI_ERR_INFO, "invalid info object " + std::to_string(info));
  void* memory = allocate_memory(size);
  MPISIM_CHECK(runtime, memory != nullptr, MPI_COMM_WORLD, MPI_ERR_NO_MEM,
               "cannot allocate " + std::to_string(size) + " bytes");
  *static_cast<void**>(baseptr) = memory;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Free_mem(void* base)
{
  free_memory(base);
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Get_address)
MPISIM_ALIAS(Address)
MPISIM_ALIAS(Aint_add)
MPISIM_ALIAS(Aint_diff)
MPISIM_ALIAS(Alloc_mem)
MPISIM_ALIAS(Free_mem)
