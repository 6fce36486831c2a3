// Derived datatypes (MPI_Type_contiguous/vector/indexed/create_struct/create_hindexed_block/dup/commit/free/size/
// get_extent). Each type remembers how it was built (mpi::Datatype::Recipe, for MPI_Type_get_contents).
// Also the MPI-1 names removed in MPI-3.0 (MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_struct, MPI_Type_extent,
// MPI_Type_lb, MPI_Type_ub): the same constructors and inquiries under their old names, as MPICH and Open MPI keep
// them.
#include "online/bindings/Arguments.hpp"
#include "online/objects/Attributes.hpp"
#include "online/objects/Darray.hpp"

#include "common/Errors.hpp"

#include <vector>

using namespace mpisim::online;
using mpisim::mpi::Datatype;
using mpisim::mpi::DatatypePtr;

namespace {
// Builds a type, turning the runtime's InputError (negative counts, ...) into MPI_ERR_ARG.
template <typename Build> int define(Runtime& runtime, MPI_Datatype* newtype, const char* call, Build&& build)
{
  try {
    *newtype = runtime.datatypes().add(build());
    return MPI_SUCCESS;
  } catch (const mpisim::InputError& error) {
    return raise_error(runtime, MPI_COMM_WORLD, MPI_ERR_ARG, call, error.what());
  }
}
} // namespace

extern "C" int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_contiguous", old));
  return define(runtime, newtype, "MPI_Type_contiguous", [&] { return Datatype::contiguous(count, old); });
}

extern "C" int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_vector", old));
  return define(runtime, newtype, "MPI_Type_vector", [&] { return Datatype::vector(count, blocklength, stride, old); });
}

extern "C" int PMPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_indexed", old));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, "MPI_Type_indexed"));
  return define(runtime, newtype, "MPI_Type_indexed", [&] {
    return Datatype::indexed({blocklengths, blocklengths + count}, {displacements, displacements + count}, old);
  });
}

namespace {
// The bodies MPI_Type_create_struct/hvector/hindexed share with their MPI-1 names, `call` naming the one called.
int build_struct(Runtime& runtime, int count, const int blocklengths[], const MPI_Aint displacements[],
                 const MPI_Datatype types[], MPI_Datatype* newtype, const char* call)
{
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, call));
  std::vector<DatatypePtr> members(count);
  for (int i = 0; i < count; ++i)
    MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, types[i], call, members[i]));
  return define(runtime, newtype, call, [&] {
    return Datatype::structure({blocklengths, blocklengths + count}, {displacements, displacements + count}, members);
  });
}

int build_hvector(Runtime& runtime, int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                  MPI_Datatype* newtype, const char* call)
{
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, call, old));
  return define(runtime, newtype, call, [&] { return Datatype::hvector(count, blocklength, stride, old); });
}

int build_hindexed(Runtime& runtime, int count, const int blocklengths[], const MPI_Aint displacements[],
                   MPI_Datatype oldtype, MPI_Datatype* newtype, const char* call)
{
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, call, old));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, call));
  return define(runtime, newtype, call, [&] {
    return Datatype::hindexed({blocklengths, blocklengths + count}, {displacements, displacements + count}, old);
  });
}
} // namespace

extern "C" int PMPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                                       const MPI_Datatype types[], MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  return build_struct(runtime, count, blocklengths, displacements, types, newtype, "MPI_Type_create_struct");
}

extern "C" int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  return build_hvector(runtime, count, blocklength, stride, oldtype, newtype, "MPI_Type_create_hvector");
}

extern "C" int PMPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                                         MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  return build_hindexed(runtime, count, blocklengths, displacements, oldtype, newtype, "MPI_Type_create_hindexed");
}

extern "C" int PMPI_Type_create_indexed_block(int count, int blocklength, const int displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_create_indexed_block", old));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, "MPI_Type_create_indexed_block"));
  return define(runtime, newtype, "MPI_Type_create_indexed_block", [&] {
    return Datatype::indexed_block(blocklength, {displacements, displacements + count}, old);
  });
}

extern "C" int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_create_hindexed_block", old));
  MPISIM_TRY(check_count(runtime, MPI_COMM_WORLD, count, "MPI_Type_create_hindexed_block"));
  return define(runtime, newtype, "MPI_Type_create_hindexed_block", [&] {
    return Datatype::hindexed_block(blocklength, {displacements, displacements + count}, old);
  });
}

extern "C" int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_dup", old));
  // A type of its own (freed apart from the original) with the attributes the copy callbacks keep (MPI-3.1 4.1.10).
  const int error = define(runtime, newtype, "MPI_Type_dup", [&] { return Datatype::duplicate(old); });
  if (error != MPI_SUCCESS)
    return error;
  const int copy_error =
      runtime.attributes().copy_all(runtime.current_rank(), AttributeObject::Type, oldtype, *newtype);
  if (copy_error != MPI_SUCCESS) { // a copy callback failed: no duplicate (as MPICH does)
    runtime.attributes().remove_all(runtime.current_rank(), AttributeObject::Type, *newtype);
    runtime.datatypes().release(*newtype);
    *newtype = MPI_DATATYPE_NULL;
  }
  return copy_error;
}

extern "C" int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_create_resized", old));
  return define(runtime, newtype, "MPI_Type_create_resized", [&] { return Datatype::resized(old, lb, extent); });
}

extern "C" int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                                         int order, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_create_subarray", old));
  MPISIM_CHECK(runtime, ndims > 0, MPI_COMM_WORLD, MPI_ERR_ARG, "ndims must be positive, got " + std::to_string(ndims));
  MPISIM_CHECK(runtime, order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN, MPI_COMM_WORLD, MPI_ERR_ARG,
               "unknown order " + std::to_string(order));
  return define(runtime, newtype, "MPI_Type_create_subarray", [&] {
    return Datatype::subarray({sizes, sizes + ndims}, {subsizes, subsizes + ndims}, {starts, starts + ndims},
                              order == MPI_ORDER_C ? Datatype::Order::C : Datatype::Order::Fortran, old);
  });
}

extern "C" int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                                       const int dargs[], const int psizes[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr old;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, oldtype, "MPI_Type_create_darray", old));
  MPISIM_CHECK(runtime, ndims > 0, MPI_COMM_WORLD, MPI_ERR_ARG, "ndims must be positive, got " + std::to_string(ndims));
  MPISIM_CHECK(runtime, order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN, MPI_COMM_WORLD, MPI_ERR_ARG,
               "unknown order " + std::to_string(order));
  DarrayRequest request{
      size, rank, {gsizes, gsizes + ndims}, {}, {}, {psizes, psizes + ndims}, order == MPI_ORDER_FORTRAN};
  for (int d = 0; d < ndims; ++d) {
    const int distribution = distribs[d];
    MPISIM_CHECK(runtime,
                 distribution == MPI_DISTRIBUTE_BLOCK || distribution == MPI_DISTRIBUTE_CYCLIC ||
                     distribution == MPI_DISTRIBUTE_NONE,
                 MPI_COMM_WORLD, MPI_ERR_ARG, "unknown distribution " + std::to_string(distribution));
    request.distributions.push_back(distribution == MPI_DISTRIBUTE_BLOCK    ? Distribution::Block
                                    : distribution == MPI_DISTRIBUTE_CYCLIC ? Distribution::Cyclic
                                                                            : Distribution::None);
    request.dargs.push_back(dargs[d] == MPI_DISTRIBUTE_DFLT_DARG ? kDefaultDarg : dargs[d]);
  }
  // The recipe is the call's arguments as given (MPI-3.1 4.1.13), not the constructors the layout is built from.
  std::vector<int> integers{size, rank, ndims};
  for (const int* array : {gsizes, distribs, dargs, psizes})
    integers.insert(integers.end(), array, array + ndims);
  integers.push_back(order);
  return define(runtime, newtype, "MPI_Type_create_darray", [&] {
    return Datatype::with_recipe(darray_layout(request, old), {Datatype::Combiner::Darray, integers, {}, {old}});
  });
}

extern "C" int PMPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint* true_lb, MPI_Aint* true_extent)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_true_extent", t));
  *true_lb = t->true_lb();
  *true_extent = t->true_extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_commit(MPI_Datatype* type)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  return resolve_type(runtime, MPI_COMM_WORLD, *type, "MPI_Type_commit", t); // types are ready when built
}

extern "C" int PMPI_Type_free(MPI_Datatype* type)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, *type, "MPI_Type_free", t));
  MPISIM_CHECK(runtime, not t->is_predefined(), MPI_COMM_WORLD, MPI_ERR_TYPE, "cannot free a predefined datatype");
  MPISIM_TRY(runtime.attributes().remove_all(runtime.current_rank(), AttributeObject::Type, *type));
  runtime.datatypes().release(*type);
  *type = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_size(MPI_Datatype type, int* size)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_size", t));
  *size = static_cast<int>(t->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_extent(MPI_Datatype type, MPI_Aint* lb, MPI_Aint* extent)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_get_extent", t));
  *lb = t->lb();
  *extent = t->extent();
  return MPI_SUCCESS;
}

// MPI-1 names ---------------------------------------------------------------------------------------------------------

extern "C" int PMPI_Type_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                                const MPI_Datatype types[], MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  return build_struct(runtime, count, blocklengths, displacements, types, newtype, "MPI_Type_struct");
}

extern "C" int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                 MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  return build_hvector(runtime, count, blocklength, stride, oldtype, newtype, "MPI_Type_hvector");
}

extern "C" int PMPI_Type_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Runtime& runtime = Runtime::get();
  return build_hindexed(runtime, count, blocklengths, displacements, oldtype, newtype, "MPI_Type_hindexed");
}

extern "C" int PMPI_Type_extent(MPI_Datatype type, MPI_Aint* extent)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_extent", t));
  *extent = t->extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_lb(MPI_Datatype type, MPI_Aint* displacement)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_lb", t));
  *displacement = t->lb();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_ub(MPI_Datatype type, MPI_Aint* displacement)
{
  Runtime& runtime = Runtime::get();
  DatatypePtr t;
  MPISIM_TRY(resolve_type(runtime, MPI_COMM_WORLD, type, "MPI_Type_ub", t));
  *displacement = t->lb() + t->extent();
  return MPI_SUCCESS;
}

MPISIM_ALIAS(Type_contiguous)
MPISIM_ALIAS(Type_vector)
MPISIM_ALIAS(Type_indexed)
MPISIM_ALIAS(Type_create_struct)
MPISIM_ALIAS(Type_create_hvector)
MPISIM_ALIAS(Type_create_hindexed)
MPISIM_ALIAS(Type_create_indexed_block)
MPISIM_ALIAS(Type_create_hindexed_block)
MPISIM_ALIAS(Type_dup)
MPISIM_ALIAS(Type_create_resized)
MPISIM_ALIAS(Type_create_subarray)
MPISIM_ALIAS(Type_create_darray)
MPISIM_ALIAS(Type_get_true_extent)
MPISIM_ALIAS(Type_commit)
MPISIM_ALIAS(Type_free)
MPISIM_ALIAS(Type_size)
MPISIM_ALIAS(Type_get_extent)
MPISIM_ALIAS(Type_struct)
MPISIM_ALIAS(Type_hvector)
MPISIM_ALIAS(Type_hindexed)
MPISIM_ALIAS(Type_extent)
MPISIM_ALIAS(Type_lb)
MPISIM_ALIAS(Type_ub)
